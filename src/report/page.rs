//! The HTML page of a [`Report`]: one file with its style and a few lines of script inline, the
//! pictures inline SVG, nothing fetched. Every picture is a `<figure data-figure=KIND>`; the count
//! is written on `<html data-figures=N>`, and the script checks on load that each figure holds a
//! drawn SVG and sets `data-status="ok"` on `<html>` (or `"error: ..."`, as does any script error),
//! which `scripts/browser-test.sh` reads in a real browser. Table cells carry their counts as
//! `data-` attributes, so that the numbers shown can be checked against the CSVs.

use super::{ExactCheck, Failing, Grid, Provenance, Report, RuleDeadEnds, Section};
use crate::render::{escape_xml as esc, Metric};
use std::fmt::Write;

const STYLE: &str = "body{font-family:DejaVu Sans,Verdana,sans-serif;margin:1.5em auto;max-width:1100px;padding:0 1em;color:#222}\
h1{font-size:1.6em}h2{border-bottom:2px solid #0072b2;padding-bottom:.2em;margin-top:2em}h3{margin-top:1.4em}\
table{border-collapse:collapse;font-size:.85em;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:right}\
th{background:#e8f0f8}td.l,th.l{text-align:left}.partial{background:#fff3cd}.warn{background:#fff3cd;padding:.5em;border-left:4px solid #e6a000}\
.note{color:#555;font-size:.85em;margin:.2em 0}figure{margin:.5em 0}figure svg{max-width:100%;height:auto;border:1px solid #eee}\
pre{background:#f6f6f6;padding:.6em;overflow-x:auto;font-size:.85em}nav a{margin-right:1em}.ex{color:#0a5}.out{color:#c00}";

const SCRIPT: &str = r#"window.onerror=function(m){document.documentElement.setAttribute('data-status','error: '+m);};
window.addEventListener('load',function(){var h=document.documentElement;if(h.getAttribute('data-status'))return;
var f=document.querySelectorAll('figure[data-figure]'),want=+h.getAttribute('data-figures'),bad=[];
for(var i=0;i<f.length;i++){var s=f[i].querySelector('svg');var r=s?s.getBoundingClientRect():null;
if(!r||r.width<50||r.height<30||s.querySelectorAll('rect,path,text,polyline,circle').length<3)bad.push(f[i].getAttribute('data-figure'));}
h.setAttribute('data-status',f.length!==want?'error: '+f.length+' figures of '+want:bad.length?'error: empty figures: '+bad.join(','):'ok');});"#;

/// The page of `report`.
pub fn report_html(report: &Report) -> String {
    let mut body = String::new();
    let mut figures = 0usize;
    let title = if report.family {
        format!("{} ({} sweeps)", report.folder, report.sections.len())
    } else {
        report.sections[0].title.clone()
    };
    let _ = writeln!(body, "<h1>ktour report: {}</h1>", esc(&title));
    let _ = writeln!(
        body,
        "<p class=\"note\">Made by <code>ktour report {}</code> from the folder's summary.csv, deadends.csv, runs.csv and meta.json. Exact values: {}.</p>",
        esc(&report.folder),
        match &report.exact {
            Some((src, n)) => format!("{n} from {}", esc(src)),
            None => "none read (--exact DIR)".into(),
        }
    );
    if report.family {
        body.push_str("<nav>");
        for s in &report.sections {
            let _ = write!(body, "<a href=\"#{0}\">{0}</a>", esc(&s.name));
        }
        body.push_str("</nav>\n");
    }
    for s in &report.sections {
        section(&mut body, s, report.family, &mut figures);
    }
    let mut page = String::with_capacity(body.len() + 4096);
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\" data-figures=\"{figures}\">\n<head>\n<meta charset=\"utf-8\">\n<title>ktour report: {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}<script>\n{SCRIPT}\n</script>\n</body>\n</html>\n",
        esc(&title)
    );
    page
}

fn figure(out: &mut String, kind: &str, svg: &str, figures: &mut usize) {
    *figures += 1;
    let _ = writeln!(
        out,
        "<figure data-figure=\"{kind}\">\n{}</figure>",
        svg.trim()
    );
}

fn notes(out: &mut String, lines: &[String]) {
    for l in lines {
        let _ = writeln!(out, "<p class=\"note\">{}</p>", esc(l));
    }
}

fn section(out: &mut String, s: &Section, family: bool, figures: &mut usize) {
    let _ = writeln!(out, "<section id=\"{}\">", esc(&s.name));
    if family {
        let _ = writeln!(out, "<h2>{}</h2>", esc(&s.name));
    }
    provenance(out, &s.provenance);
    let plot = |m: Metric| s.plots.figures.iter().find(|(k, _)| *k == m);
    out.push_str("<h3>Success against board size</h3>\n");
    if let Some((_, svg)) = plot(Metric::Success) {
        figure(out, "success", svg, figures);
    }
    notes(out, &s.plots.notes);
    out.push_str("<h3>Success table</h3>\n");
    grid(out, &s.grid);
    exact(out, &s.exact_checks);
    for (m, head) in [
        (Metric::Backtracks, "Backtracks"),
        (Metric::Throughput, "Throughput"),
    ] {
        if let Some((_, svg)) = plot(m) {
            let _ = writeln!(out, "<h3>{head}</h3>");
            figure(out, m.name(), svg, figures);
        }
    }
    out.push_str("<h3>Dead-end lengths</h3>\n");
    dead_ends(out, &s.dead_ends, figures);
    out.push_str("<h3>Failing starts</h3>\n");
    match &s.failing {
        Ok(f) => failing(out, f, figures),
        Err(why) => notes(out, std::slice::from_ref(why)),
    }
    if let Some(m) = &s.provenance.meta {
        let _ = writeln!(
            out,
            "<details><summary>The spec, as TOML</summary><pre>{}</pre></details>",
            esc(&m.spec_toml)
        );
    }
    out.push_str("</section>\n");
}

fn provenance(out: &mut String, p: &Provenance) {
    let mut rows: Vec<(&str, String)> = Vec::new();
    if let Some(m) = &p.meta {
        let complete = matches!(m.status.as_str(), "complete" | "merged") && p.partial == 0;
        let status = match m.shard {
            Some((i, n)) => format!(
                "{}, shard {i}/{n}: part of the sweep's groups, the other shards hold the rest",
                m.status
            ),
            None if complete => format!("{} (every group counted all its runs)", m.status),
            None => format!("{} (partial)", m.status),
        };
        rows.push(("status", status));
        rows.push((
            "runs",
            format!("{} counted of {} planned", p.runs, m.total_runs),
        ));
        rows.push(("build", m.build.clone()));
        rows.push(("machine", format!("{}, host {}", m.machine, m.hostname)));
        rows.push(("threads", m.threads.to_string()));
        rows.push((
            "wall time",
            format!("{:.1} s (the last invocation)", m.elapsed_s),
        ));
        rows.push(("command", m.command.clone()));
        rows.push((
            "times (UTC)",
            format!(
                "first started {}, last started {}, finished {}",
                m.times.0, m.times.1, m.times.2
            ),
        ));
    } else {
        rows.push(("runs", format!("{} counted", p.runs)));
    }
    rows.push((
        "time in runs",
        format!(
            "{:.1} s, all threads and invocations (summary.csv's elapsed_ns_total: about the CPU time of the runs)",
            p.run_seconds
        ),
    ));
    rows.push((
        "groups",
        format!(
            "{} (board x rule x method), {} partial",
            p.groups, p.partial
        ),
    ));
    out.push_str("<table class=\"prov\">\n");
    for (k, v) in rows {
        let _ = writeln!(
            out,
            "<tr><th class=\"l\">{k}</th><td class=\"l\">{}</td></tr>",
            esc(&v)
        );
    }
    out.push_str("</table>\n");
    if let Some(note) = &p.meta_note {
        notes(out, std::slice::from_ref(note));
    }
    if p.partial > 0 {
        let more = p.partial - p.partial_named.len();
        let _ = writeln!(
            out,
            "<p class=\"warn\">Partial: {} did not count every run (interrupted, failed, a shard, or a merge missing one); their cells are marked *: {}{}</p>",
            super::groups(p.partial),
            esc(&p.partial_named.join(", ")),
            if more > 0 { format!(" and {more} more") } else { String::new() }
        );
    }
    if let Some(m) = p.meta.as_ref().filter(|m| !m.shards.is_empty()) {
        shards(out, &m.shards);
    }
}

/// The folders a merge took, each with its shard, status, host and times.
fn shards(out: &mut String, shards: &[crate::experiment::ShardRun]) {
    out.push_str("<table class=\"shards\"><tr><th class=\"l\">merged folder</th><th>shard</th><th class=\"l\">status</th><th class=\"l\">host</th><th class=\"l\">started</th><th class=\"l\">finished</th></tr>\n");
    for r in shards {
        let _ = writeln!(
            out,
            "<tr><td class=\"l\">{}</td><td>{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td></tr>",
            esc(&r.folder),
            r.shard.map_or("-".into(), |(i, n)| format!("{i}/{n}")),
            esc(&r.status),
            esc(&r.hostname),
            esc(&r.first_started),
            esc(&r.finished)
        );
    }
    out.push_str("</table>\n");
}

fn pct(x: f64) -> String {
    format!("{:.1}", 100.0 * x)
}

fn grid(out: &mut String, g: &Grid) {
    out.push_str(
        "<table class=\"grid\">\n<tr><th class=\"l\">success % of feasible runs [Wilson 95%]</th>",
    );
    for c in &g.columns {
        let _ = write!(out, "<th>{}</th>", esc(c));
    }
    out.push_str("</tr>\n");
    let (mut partial, mut exact) = (false, false);
    for row in &g.rows {
        let _ = write!(
            out,
            "<tr><td class=\"l\">{} {}</td>",
            esc(&row.method),
            esc(&row.rule)
        );
        for cell in &row.cells {
            let Some(c) = cell else {
                out.push_str("<td></td>");
                continue;
            };
            partial |= c.partial;
            let class = if c.partial { " class=\"partial\"" } else { "" };
            let _ = write!(
                out,
                "<td{class} data-successes=\"{}\" data-feasible=\"{}\"",
                c.successes, c.feasible
            );
            match (c.rate(), c.interval()) {
                (Some(r), Some((lo, hi))) => {
                    if let Some(e) = c.exact() {
                        exact = true;
                        let _ = write!(
                            out,
                            " data-exact=\"{e}\">{}{} [{}-{}]<br><span class=\"ex\">exact {}</span></td>",
                            pct(r),
                            if c.partial { "*" } else { "" },
                            pct(lo),
                            pct(hi),
                            pct(e)
                        );
                    } else {
                        let _ = write!(
                            out,
                            ">{}{} [{}-{}]</td>",
                            pct(r),
                            if c.partial { "*" } else { "" },
                            pct(lo),
                            pct(hi)
                        );
                    }
                }
                _ => out.push_str(">-</td>"),
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    let mut lines = vec!["Columns: the larger board side, in ranges that double (as the table a sweep prints); a cell pools the boards of its range. - : no feasible run.".to_string()];
    if partial {
        lines.push("* from part of the runs (interrupted, failed or a shard): see `complete` in summary.csv".into());
    }
    if exact {
        lines.push("exact: the value of `ktour exact` for the same boards, rule and starts, pooled as the sample is (each board weighted by its feasible runs)".into());
    }
    if g.left_out > 0 {
        lines.push(format!(
            "{} more rule x method series not shown: the best {} by overall rate are (as in the printed table)",
            g.left_out,
            g.rows.len()
        ));
    }
    notes(out, &lines);
}

fn exact(out: &mut String, checks: &[ExactCheck]) {
    if checks.is_empty() {
        return;
    }
    let inside = checks.iter().filter(|c| c.inside()).count();
    let _ = writeln!(
        out,
        "<h3>Sampled against exact</h3>\n<p class=\"note\">{inside} of {} sampled rates hold the exact value in their Wilson 95% interval.</p>",
        checks.len()
    );
    out.push_str("<table class=\"exact\"><tr><th class=\"l\">board</th><th class=\"l\">rule</th><th>sampled %</th><th>Wilson 95%</th><th>exact %</th><th>inside</th></tr>\n");
    for c in checks {
        let (lo, hi) = crate::util::wilson::wilson95(c.successes, c.feasible);
        let _ = writeln!(
            out,
            "<tr data-successes=\"{}\" data-feasible=\"{}\" data-exact=\"{}\"><td class=\"l\">{}x{}</td><td class=\"l\">{}</td><td>{}</td><td>[{}-{}]</td><td>{:.3}</td><td class=\"{}\">{}</td></tr>",
            c.successes,
            c.feasible,
            c.exact,
            c.rows,
            c.cols,
            esc(&c.rule),
            pct(c.successes as f64 / c.feasible as f64),
            pct(lo),
            pct(hi),
            100.0 * c.exact,
            if c.inside() { "ex" } else { "out" },
            if c.inside() { "yes" } else { "no" }
        );
    }
    out.push_str("</table>\n");
}

fn dead_ends(out: &mut String, d: &Result<Vec<RuleDeadEnds>, String>, figures: &mut usize) {
    match d {
        Err(why) => notes(out, std::slice::from_ref(why)),
        Ok(h) if h.is_empty() => notes(out, &["no run dead-ended".to_string()]),
        Ok(h) => {
            figure(out, "deadends", &super::dead_ends_svg(h), figures);
            if h.len() > super::MAX_PANELS {
                let rest: Vec<&str> = h[super::MAX_PANELS..]
                    .iter()
                    .map(|r| r.rule.as_str())
                    .collect();
                notes(
                    out,
                    &[format!(
                        "rules past the first {} not drawn: {}",
                        super::MAX_PANELS,
                        rest.join(", ")
                    )],
                );
            }
        }
    }
}

fn failing(out: &mut String, f: &Failing, figures: &mut usize) {
    if let Some(svg) = &f.maps_svg {
        figure(out, "startmap", svg, figures);
    }
    notes(out, &f.notes);
    if f.listed.is_empty() {
        notes(
            out,
            &["no run failed from a start where a tour exists".to_string()],
        );
        return;
    }
    let _ = writeln!(
        out,
        "<details{}><summary>{} failed runs (start, how it ended, squares visited; `ktour solve --seed` replays one)</summary>",
        if f.listed.len() <= 20 { " open" } else { "" },
        f.failed_runs
    );
    out.push_str("<table class=\"failing\"><tr><th class=\"l\">board</th><th class=\"l\">rule</th><th class=\"l\">method</th><th>start</th><th>trial</th><th>seed</th><th class=\"l\">outcome</th><th>visited</th></tr>\n");
    for r in &f.listed {
        let _ = writeln!(
            out,
            "<tr><td class=\"l\">{}x{}</td><td class=\"l\">{}</td><td class=\"l\">{}{}</td><td>{},{}</td><td>{}</td><td>{}</td><td class=\"l\">{}</td><td>{}</td></tr>",
            r.board.0,
            r.board.1,
            esc(&r.rule),
            esc(&r.method),
            if r.closed { " closed" } else { "" },
            r.start.0,
            r.start.1,
            r.trial,
            r.seed,
            esc(&r.outcome),
            r.visited
        );
    }
    out.push_str("</table></details>\n");
}
