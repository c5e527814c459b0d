/* The baseline of `ktour solve --method naive` (benches/README.md): a plain recursive depth-first
 * search for a knight's tour, as textbooks write it, with the move labels of docs/REFERENCE.md
 * (1 = two up, one right, then clockwise) tried in a fixed order, no move ordering and no pruning.
 * The board has a two-square border marked as visited, so a move needs no bounds check (a
 * `#define N 8` program with four bounds checks per move runs as fast; with the sides read at run
 * time it is slower). For a closed tour the last square must be a knight move from the start, and a
 * branch is cut as soon as the start has no free neighbour left, as ktour does, so the two count the
 * same nodes.
 *
 * Usage: naive ROWS COLS ROW COL [ORDER [open|closed]]   (ORDER: eight digits, default 12345678)
 * Prints "tour after N nodes, T ns, C ns of CPU" (or "no tour ..."): N is the squares entered, the
 * start included, until the first tour (the figure `ktour solve --method naive --budget 0` prints),
 * T the search's own wall time and C its CPU time, set-up and start-up left out (what
 * benches/backtrack.rs reads).
 *
 *   cc -O2 -o naive benches/c/naive.c && ./naive 8 8 0 1      # 621436593 nodes
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* (drow, dcol) of labels 1..8 */
static const int DR[8] = {-2, -1, 1, 2, 2, 1, -1, -2};
static const int DC[8] = {1, 2, 2, 1, -1, -2, -2, -1};

static long offset[8];        /* padded offsets in the order tried */
static unsigned char *seen;   /* 1: border or visited */
static unsigned char *near;   /* 1: a knight move from the start (closed tours only) */
static long squares;
static int closed;
static long ways_back;        /* free squares a knight move from the start */
static unsigned long long nodes;

static int go(long p, long depth) {
    if (depth == squares) return !closed || near[p];
    if (closed && ways_back == 0) return 0;
    for (int k = 0; k < 8; k++) {
        long q = p + offset[k];
        if (seen[q]) continue;
        seen[q] = 1;
        ways_back -= near[q];
        nodes++;
        if (go(q, depth + 1)) return 1;
        ways_back += near[q];
        seen[q] = 0;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: naive ROWS COLS ROW COL [ORDER [open|closed]]\n");
        return 2;
    }
    long rows = atol(argv[1]), cols = atol(argv[2]), r0 = atol(argv[3]), c0 = atol(argv[4]);
    const char *order = argc > 5 ? argv[5] : "12345678";
    closed = argc > 6 && strcmp(argv[6], "closed") == 0;
    if (rows < 1 || cols < 1 || r0 < 0 || r0 >= rows || c0 < 0 || c0 >= cols || strlen(order) != 8) {
        fprintf(stderr, "error: bad board, start or order\n");
        return 2;
    }
    long stride = cols + 4, len = (rows + 4) * stride;
    for (int i = 0; i < 8; i++) {
        int l = order[i] - '1';
        if (l < 0 || l > 7) {
            fprintf(stderr, "error: ORDER is eight digits 1-8\n");
            return 2;
        }
        offset[i] = DR[l] * stride + DC[l];
    }
    seen = malloc(len);
    near = calloc(len, 1);
    for (long i = 0; i < len; i++) {
        long r = i / stride - 2, c = i % stride - 2;
        seen[i] = !(r >= 0 && r < rows && c >= 0 && c < cols);
    }
    squares = rows * cols;
    long start = (r0 + 2) * stride + c0 + 2;
    if (closed)
        for (int k = 0; k < 8; k++)
            if (!seen[start + DR[k] * stride + DC[k]]) {
                near[start + DR[k] * stride + DC[k]] = 1;
                ways_back++;
            }
    seen[start] = 1;
    nodes = 1;
    struct timespec t0, t1, u0, u1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &u0);
    /* 1x1 has the trivial open tour and no cycle */
    int found = squares == 1 ? !closed : go(start, 1);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &u1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long long ns = (t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
    long long cpu = (u1.tv_sec - u0.tv_sec) * 1000000000LL + (u1.tv_nsec - u0.tv_nsec);
    printf("%s after %llu nodes, %lld ns, %lld ns of CPU\n", found ? "tour" : "no tour", nodes,
           ns, cpu);
    return 0;
}
