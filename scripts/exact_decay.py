#!/usr/bin/env python3
"""How pure Warnsdorff's success from the corner decays with n under random ties: a fitted law.

Reads the exact corner probabilities (results/exact/NxN-RULE.csv row 0,0 for n = 5..10, and
10x10-random-corner.json) and the sampled sweep of experiments/exact-decay.toml (results/exact/decay-sweep/summary.csv:
successes of T trials from the corner per n), and fits two laws to the sampled points by weighted
least squares on their linearising transforms (weights: the inverse binomial variance carried
through the transform, Wilson's midpoint standing in for 0 and T successes):

  Weibull (stretched exponential)  p(n) = exp(-(n / n0)^b)   ln(-ln p) = b ln n - b ln n0
  curved Weibull                   ln(-ln p) = c0 + c1 ln n + c2 (ln n)^2  (the exponent drifting)
  logistic                         p(n) = 1 / (1 + exp(a + c n))   logit p = -(a + c n)

and writes results/exact/decay.csv (rule, n, source, trials, successes, estimate, Wilson 95%
interval, each law's fitted value and the residual over the standard error) and prints each law's
parameters and chi-square per degree of freedom on the probability scale.

    python3 scripts/exact_decay.py [SUMMARY_CSV]

Standard library only (plain weighted least squares in closed form).
"""
import csv
import json
import math
import os
import sys
from fractions import Fraction

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
EXACT = os.path.join(ROOT, "results", "exact")
RULES = ["random", "pohl+random"]
Z = 1.959963984540054


def wilson(k, n, z=Z):
    """Wilson's 95% score interval for k successes in n trials (Wilson 1927)."""
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def exact_corner(n, rule):
    """The exact success probability from the corner, as a Fraction, or None if not computed."""
    name = f"{n}x{n}-{rule.replace('+', '-')}"
    path = os.path.join(EXACT, name + ".csv")
    if os.path.exists(path):
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                if row["row"] == "0" and row["col"] == "0":
                    return Fraction(row["success"])
    path = os.path.join(EXACT, name + "-corner.json")
    if os.path.exists(path):
        with open(path) as f:
            return Fraction(json.load(f)["success"])
    return None


def wls(xs, ys, ws, degree=1):
    """Weighted least squares polynomial y = c0 + c1 x + ... (normal equations, Gauss-Jordan)."""
    k = degree + 1
    a = [[sum(w * x ** (i + j) for w, x in zip(ws, xs)) for j in range(k)] for i in range(k)]
    b = [sum(w * y * x ** i for w, x, y in zip(ws, xs, ys)) for i in range(k)]
    for c in range(k):
        piv = max(range(c, k), key=lambda r: abs(a[r][c]))
        a[c], a[piv], b[c], b[piv] = a[piv], a[c], b[piv], b[c]
        for r in range(k):
            if r != c:
                f = a[r][c] / a[c][c]
                a[r] = [u - f * v for u, v in zip(a[r], a[c])]
                b[r] -= f * b[c]
    return [b[i] / a[i][i] for i in range(k)]


def fit(points):
    """Both laws fitted to sampled (n, k, T) points: {law: (params, p(n) function)}."""
    xs_w, ys_w, ws_w, xs_l, ys_l, ws_l = [], [], [], [], [], []
    for n, k, t in points:
        # Wilson's midpoint keeps 0 and T successes finite under the transforms
        p = (k + Z * Z / 2) / (t + Z * Z)
        var = p * (1 - p) / t
        lp = math.log(p)
        xs_w.append(math.log(n))
        ys_w.append(math.log(-lp))
        ws_w.append((p * lp) ** 2 / var)  # d ln(-ln p)/dp = 1 / (p ln p)
        xs_l.append(n)
        ys_l.append(math.log(p / (1 - p)))
        ws_l.append(t * p * (1 - p))  # d logit/dp = 1 / (p (1 - p))
    a, b = wls(xs_w, ys_w, ws_w)
    n0 = math.exp(-a / b)
    a2, c2 = wls(xs_l, ys_l, ws_l)
    q0, q1, q2 = wls(xs_w, ys_w, ws_w, degree=2)
    return {
        "weibull": ({"b": b, "n0": n0}, lambda n: math.exp(-((n / n0) ** b))),
        "curved": (
            {"c0": q0, "c1": q1, "c2": q2},
            lambda n: math.exp(-math.exp(q0 + q1 * math.log(n) + q2 * math.log(n) ** 2)),
        ),
        "logistic": (
            {"a": -a2, "c": -c2},
            lambda n: 1 / (1 + math.exp(min(700.0, -(a2 + c2 * n)))),
        ),
    }


def report(rule, laws, points):
    """Print each law's parameters and its chi-square on the probability scale over `points`."""
    for law, (params, p_of) in laws.items():
        chi2 = 0.0
        for n, k, t in points:
            p = p_of(n)
            chi2 += (k / t - p) ** 2 / (max(p * (1 - p), 1e-12) / t)
        dof = len(points) - len(params)
        shown = ", ".join(f"{k} = {v:.4g}" for k, v in params.items())
        print(f"{rule} {law}, n = {points[0][0]}..{points[-1][0]}: {shown}; chi-square {chi2:.1f}"
              f" on {dof} degrees of freedom ({chi2 / dof:.2f} per degree)")


def main():
    summary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        ROOT, "results", "exact", "decay-sweep", "summary.csv")
    sampled = {rule: [] for rule in RULES}
    with open(summary, newline="") as f:
        for row in csv.DictReader(f):
            if row["rule"] in sampled and row["rows"] == row["cols"]:
                sampled[row["rule"]].append(
                    (int(row["rows"]), int(row["successes"]), int(row["runs"])))
    out = os.path.join(EXACT, "decay.csv")
    with open(out, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["rule", "n", "source", "trials", "successes", "estimate", "ci_low", "ci_high",
                    "weibull_fit", "weibull_residual_se", "curved_fit", "curved_residual_se",
                    "logistic_fit", "logistic_residual_se"])
        for rule in RULES:
            points = sorted(sampled[rule])
            laws = fit(points)
            # the same laws fitted from n = 70 only: how much of the misfit is the small boards'
            for lo in (points[0][0], 70):
                part = [pt for pt in points if pt[0] >= lo]
                report(rule, fit(part) if lo > points[0][0] else laws, part)
            rows = []
            for n in range(5, points[0][0]):
                p = exact_corner(n, rule)
                if p is not None:
                    rows.append((n, "exact", "", "", float(p), float(p), float(p), None))
            for n, k, t in points:
                lo, hi = wilson(k, t)
                rows.append((n, "sampled", t, k, k / t, lo, hi, t))
            for n, source, t, k, est, lo, hi, trials in rows:
                cells = [rule, n, source, t, k, f"{est:.6g}", f"{lo:.6g}", f"{hi:.6g}"]
                for law in ("weibull", "curved", "logistic"):
                    p = laws[law][1](n)
                    if trials:
                        se = math.sqrt(max(p * (1 - p), 1e-12) / trials)
                        cells += [f"{p:.6g}", f"{(est - p) / se:.3f}"]
                    else:
                        cells += [f"{p:.6g}", ""]
                w.writerow(cells)
    print(f"wrote {os.path.relpath(out, ROOT)}")


if __name__ == "__main__":
    main()
