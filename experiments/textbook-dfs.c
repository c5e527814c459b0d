/* A plain recursive depth-first search for an open knight's tour, as textbooks write it: the move list
 * (drow, dcol) = (1,2),(1,-2),(-1,2),(-1,-2),(2,1),(2,-1),(-2,1),(-2,-1), no ordering, no pruning.
 * Prints the squares entered (the start included) until the first tour from (0,1) of 8x8: the
 * figure `ktour solve --method naive` with that list as `order:` must equal (results/README.md). */
#include <stdio.h>

#define N 8
static const int dr[8] = {1, 1, -1, -1, 2, 2, -2, -2};
static const int dc[8] = {2, -2, 2, -2, 1, -1, 1, -1};
static int seen[N][N];
static unsigned long long nodes;

static int go(int r, int c, int depth) {
    if (depth == N * N) return 1;
    for (int k = 0; k < 8; k++) {
        int nr = r + dr[k], nc = c + dc[k];
        if (nr < 0 || nr >= N || nc < 0 || nc >= N || seen[nr][nc]) continue;
        seen[nr][nc] = 1;
        nodes++;
        if (go(nr, nc, depth + 1)) return 1;
        seen[nr][nc] = 0;
    }
    return 0;
}

int main(void) {
    seen[0][1] = 1;
    nodes = 1;
    int found = go(0, 1, 1);
    printf("%s after %llu nodes\n", found ? "tour" : "no tour", nodes);
    return 0;
}
