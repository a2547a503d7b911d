"""Maximum-weight matching in a general graph (Edmonds' blossom algorithm, primal-dual), for the
fairest Swiss pairing (tournaments/draw/swiss_fair.py).

The algorithm is Edmonds' weighted blossom method (Edmonds 1965, "Maximum matching and a
polyhedron with 0,1-vertices"), in the O(n³) form described by Galil ("Efficient algorithms for
finding maximum matching in graphs", 1986) and laid out as in Joris van Rantwijk's public-domain
reference implementation: stages that each grow alternating trees from every free vertex along
tight edges (zero reduced cost), shrinking odd cycles into blossoms, and change the dual variables
by the largest step that keeps them feasible when no tight edge is left to follow.

Weights are integers, so every dual variable stays an integer (they are kept doubled) and the
answer is exact. Two additions:

- ``initial``: a matching of edges of the largest weight to start from (in a Swiss round, most
  players meet their plain fold partner): each such edge is tight under the starting duals, so
  the invariants hold and only the players it leaves free cost a stage;
- :meth:`WeightedMatching.reduced_cost`: the final duals, which prove the matching optimal (every
  edge's reduced cost is not negative, the matched ones' nought): the tests check them.

Pure Python; no Django, no third-party package.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


class WeightedMatching:
    """The result: ``mate[v]`` (-1 when unmatched), the doubled duals ``dual`` (vertices
    ``0..n-1``, then blossoms) and each blossom's ``parent`` (-1 at the top): at the optimum an
    edge (u, v, w) has ``dual[u] + dual[v] + 2 * (the duals of the blossoms holding both) >= 2 * w``."""

    def __init__(self, mate: list[int], dual: list[int], parent: list[int]):
        self.mate = mate
        self.dual = dual
        self.parent = parent

    def reduced_cost(self, u: int, v: int, weight: int) -> int:
        """The edge's doubled reduced cost under the final duals (never negative for an edge the
        algorithm was given)."""
        n, parent, dual = len(self.mate), self.parent, self.dual
        holding = set()
        b = parent[u]
        while b != -1:
            holding.add(b)
            b = parent[b]
        cost = dual[u] + dual[v] - 2 * weight
        b = parent[v]
        while b != -1:
            if b in holding and b >= n:
                cost += 2 * dual[b]
            b = parent[b]
        return cost

    def size(self) -> int:
        return sum(1 for m in self.mate if m != -1) // 2

    def pairs(self) -> list[tuple[int, int]]:
        return [(v, m) for v, m in enumerate(self.mate) if m > v]


def max_weight_matching(
    n: int,
    edges: Sequence[tuple[int, int, int]],
    *,
    maxcardinality: bool = False,
    initial: Iterable[int] = (),
) -> WeightedMatching:
    """A matching of the largest total weight on vertices ``0..n-1`` (among those of the largest
    size when ``maxcardinality``). ``edges`` are (u, v, integer weight), u != v, each pair once;
    ``initial`` lists indices of disjoint edges, each of the largest weight, to start from."""
    nedge = len(edges)
    maxweight = max([0] + [w for _, _, w in edges])
    endpoint = [0] * (2 * nedge)
    neighbend: list[list[int]] = [[] for _ in range(n)]
    for k, (i, j, _) in enumerate(edges):
        endpoint[2 * k] = i
        endpoint[2 * k + 1] = j
        neighbend[i].append(2 * k + 1)
        neighbend[j].append(2 * k)
    mate = [-1] * n  # mate[v]: the far endpoint index p of v's matched edge
    label = [0] * (2 * n)
    labelend = [-1] * (2 * n)
    inblossom = list(range(n))
    blossomparent = [-1] * (2 * n)
    blossomchilds: list = [None] * (2 * n)
    blossombase = list(range(n)) + [-1] * n
    blossomendps: list = [None] * (2 * n)
    bestedge = [-1] * (2 * n)
    blossombestedges: list = [None] * (2 * n)
    unusedblossoms = list(range(n, 2 * n))
    dualvar = [maxweight] * n + [0] * n
    allowedge = [False] * nedge
    queue: list[int] = []

    for k in initial:
        i, j, w = edges[k]
        if w != maxweight or mate[i] != -1 or mate[j] != -1:
            raise ValueError("the initial matching must be disjoint edges of the largest weight")
        mate[i] = 2 * k + 1
        mate[j] = 2 * k

    def slack(k: int) -> int:
        i, j, wt = edges[k]
        return dualvar[i] + dualvar[j] - 2 * wt

    blossomleaves: list = [None] * (2 * n)  # each blossom's vertices, listed once when it is made

    def leaves(b: int) -> list[int]:
        return [b] if b < n else blossomleaves[b]

    def assign_label(w: int, t: int, p: int) -> None:
        while True:
            b = inblossom[w]
            label[w] = label[b] = t
            labelend[w] = labelend[b] = p
            bestedge[w] = bestedge[b] = -1
            if t == 1:
                queue.extend(leaves(b))
                return
            base = blossombase[b]
            w, t, p = endpoint[mate[base]], 1, mate[base] ^ 1

    def scan_blossom(v: int, w: int) -> int:
        """Trace back from v and w to find a new blossom's base, or -1 for an augmenting path."""
        path = []
        base = -1
        while v != -1 or w != -1:
            b = inblossom[v]
            if label[b] & 4:
                base = blossombase[b]
                break
            path.append(b)
            label[b] = 5
            if labelend[b] == -1:
                v = -1
            else:
                v = endpoint[labelend[b]]
                b = inblossom[v]
                v = endpoint[labelend[b]]
            if w != -1:
                v, w = w, v
        for b in path:
            label[b] = 1
        return base

    def add_blossom(base: int, k: int) -> None:
        v, w, _ = edges[k]
        bb = inblossom[base]
        bv = inblossom[v]
        bw = inblossom[w]
        b = unusedblossoms.pop()
        blossombase[b] = base
        blossomparent[b] = -1
        blossomparent[bb] = b
        blossomchilds[b] = path = []
        blossomendps[b] = endps = []
        while bv != bb:
            blossomparent[bv] = b
            path.append(bv)
            endps.append(labelend[bv])
            v = endpoint[labelend[bv]]
            bv = inblossom[v]
        path.append(bb)
        path.reverse()
        endps.reverse()
        endps.append(2 * k)
        while bw != bb:
            blossomparent[bw] = b
            path.append(bw)
            endps.append(labelend[bw] ^ 1)
            w = endpoint[labelend[bw]]
            bw = inblossom[w]
        label[b] = 1
        labelend[b] = labelend[bb]
        dualvar[b] = 0
        blossomleaves[b] = [x for sub in path for x in leaves(sub)]
        for x in leaves(b):
            if label[inblossom[x]] == 2:
                queue.append(x)
            inblossom[x] = b
        bestedgeto: dict[int, int] = {}
        for sub in path:
            if blossombestedges[sub] is None:
                nblists = [[p // 2 for p in neighbend[x]] for x in leaves(sub)]
            else:
                nblists = [blossombestedges[sub]]
            for nblist in nblists:
                for kk in nblist:
                    i, j, _ = edges[kk]
                    if inblossom[j] == b:
                        i, j = j, i
                    bj = inblossom[j]
                    if bj != b and label[bj] == 1:
                        best = bestedgeto.get(bj, -1)
                        if best == -1 or slack(kk) < slack(best):
                            bestedgeto[bj] = kk
            blossombestedges[sub] = None
            bestedge[sub] = -1
        blossombestedges[b] = list(bestedgeto.values())
        best = -1
        for kk in blossombestedges[b]:
            if best == -1 or slack(kk) < slack(best):
                best = kk
        bestedge[b] = best

    def expand_blossom(b: int, endstage: bool) -> None:
        for s in blossomchilds[b]:
            blossomparent[s] = -1
            if s < n:
                inblossom[s] = s
            elif endstage and dualvar[s] == 0:
                expand_blossom(s, endstage)
            else:
                for x in leaves(s):
                    inblossom[x] = s
        if not endstage and label[b] == 2:
            entrychild = inblossom[endpoint[labelend[b] ^ 1]]
            j = blossomchilds[b].index(entrychild)
            if j & 1:
                j -= len(blossomchilds[b])
                jstep, endptrick = 1, 0
            else:
                jstep, endptrick = -1, 1
            p = labelend[b]
            while j != 0:
                label[endpoint[p ^ 1]] = 0
                label[endpoint[blossomendps[b][j - endptrick] ^ endptrick ^ 1]] = 0
                assign_label(endpoint[p ^ 1], 2, p)
                allowedge[blossomendps[b][j - endptrick] // 2] = True
                j += jstep
                p = blossomendps[b][j - endptrick] ^ endptrick
                allowedge[p // 2] = True
                j += jstep
            bv = blossomchilds[b][j]
            label[endpoint[p ^ 1]] = label[bv] = 2
            labelend[endpoint[p ^ 1]] = labelend[bv] = p
            bestedge[bv] = -1
            j += jstep
            while blossomchilds[b][j] != entrychild:
                bv = blossomchilds[b][j]
                if label[bv] == 1:
                    j += jstep
                    continue
                found = -1
                for x in leaves(bv):
                    if label[x] != 0:
                        found = x
                        break
                if found != -1:
                    label[found] = 0
                    label[endpoint[mate[blossombase[bv]]]] = 0
                    assign_label(found, 2, labelend[found])
                j += jstep
        label[b] = labelend[b] = -1
        blossomchilds[b] = blossomendps[b] = blossomleaves[b] = None
        blossombase[b] = -1
        blossombestedges[b] = None
        bestedge[b] = -1
        unusedblossoms.append(b)

    def augment_blossom(b: int, v: int) -> None:
        t = v
        while blossomparent[t] != b:
            t = blossomparent[t]
        if t >= n:
            augment_blossom(t, v)
        i = j = blossomchilds[b].index(t)
        if i & 1:
            j -= len(blossomchilds[b])
            jstep, endptrick = 1, 0
        else:
            jstep, endptrick = -1, 1
        while j != 0:
            j += jstep
            t = blossomchilds[b][j]
            p = blossomendps[b][j - endptrick] ^ endptrick
            if t >= n:
                augment_blossom(t, endpoint[p])
            j += jstep
            t = blossomchilds[b][j]
            if t >= n:
                augment_blossom(t, endpoint[p ^ 1])
            mate[endpoint[p]] = p ^ 1
            mate[endpoint[p ^ 1]] = p
        blossomchilds[b] = blossomchilds[b][i:] + blossomchilds[b][:i]
        blossomendps[b] = blossomendps[b][i:] + blossomendps[b][:i]
        blossombase[b] = blossombase[blossomchilds[b][0]]

    def augment_matching(k: int) -> None:
        v, w, _ = edges[k]
        for s, p in ((v, 2 * k + 1), (w, 2 * k)):
            while True:
                bs = inblossom[s]
                if bs >= n:
                    augment_blossom(bs, s)
                mate[s] = p
                if labelend[bs] == -1:
                    break
                t = endpoint[labelend[bs]]
                bt = inblossom[t]
                s = endpoint[labelend[bt]]
                j = endpoint[labelend[bt] ^ 1]
                if bt >= n:
                    augment_blossom(bt, j)
                mate[j] = labelend[bt]
                p = labelend[bt] ^ 1

    for _ in range(n):
        label[:] = [0] * (2 * n)
        bestedge[:] = [-1] * (2 * n)
        blossombestedges[n:] = [None] * n
        allowedge[:] = [False] * nedge
        queue[:] = []
        for v in range(n):
            if mate[v] == -1 and label[inblossom[v]] == 0:
                assign_label(v, 1, -1)
        if not queue:
            break
        augmented = False
        while True:
            while queue and not augmented:
                v = queue.pop()
                bv = inblossom[v]
                for p in neighbend[v]:
                    k = p >> 1
                    w = endpoint[p]
                    bw = inblossom[w]
                    if bv == bw:
                        continue
                    if not allowedge[k]:
                        kslack = dualvar[v] + dualvar[w] - 2 * edges[k][2]
                        if kslack <= 0:
                            allowedge[k] = True
                    if allowedge[k]:
                        if label[bw] == 0:
                            assign_label(w, 2, p ^ 1)
                        elif label[bw] == 1:
                            base = scan_blossom(v, w)
                            if base >= 0:
                                add_blossom(base, k)
                                bv = inblossom[v]
                            else:
                                augment_matching(k)
                                augmented = True
                                break
                        elif label[w] == 0:
                            label[w] = 2
                            labelend[w] = p ^ 1
                    elif label[bw] == 1:
                        if bestedge[bv] == -1 or kslack < slack(bestedge[bv]):
                            bestedge[bv] = k
                    elif label[w] == 0 and (bestedge[w] == -1 or kslack < slack(bestedge[w])):
                        bestedge[w] = k
            if augmented:
                break
            deltatype = -1
            delta = deltaedge = deltablossom = 0
            if not maxcardinality:
                deltatype = 1
                delta = min(dualvar[:n])
            for v in range(n):
                if bestedge[v] != -1 and label[inblossom[v]] == 0:
                    d = slack(bestedge[v])
                    if deltatype == -1 or d < delta:
                        delta, deltatype, deltaedge = d, 2, bestedge[v]
            for b in range(2 * n):
                if bestedge[b] != -1 and blossomparent[b] == -1 and label[b] == 1:
                    d = slack(bestedge[b]) // 2
                    if deltatype == -1 or d < delta:
                        delta, deltatype, deltaedge = d, 3, bestedge[b]
            for b in range(n, 2 * n):
                if (blossombase[b] >= 0 and blossomparent[b] == -1 and label[b] == 2
                        and (deltatype == -1 or dualvar[b] < delta)):
                    delta, deltatype, deltablossom = dualvar[b], 4, b
            if deltatype == -1:
                deltatype = 1
                delta = max(0, min(dualvar[:n]))
            for v in range(n):
                lab = label[inblossom[v]]
                if lab == 1:
                    dualvar[v] -= delta
                elif lab == 2:
                    dualvar[v] += delta
            for b in range(n, 2 * n):
                if blossombase[b] >= 0 and blossomparent[b] == -1:
                    if label[b] == 1:
                        dualvar[b] += delta
                    elif label[b] == 2:
                        dualvar[b] -= delta
            if deltatype == 1:
                break
            if deltatype == 2:
                allowedge[deltaedge] = True
                i, j, _ = edges[deltaedge]
                if label[inblossom[i]] == 0:
                    i, j = j, i
                queue.append(i)
            elif deltatype == 3:
                allowedge[deltaedge] = True
                i, j, _ = edges[deltaedge]
                queue.append(i)
            else:
                expand_blossom(deltablossom, False)
        if not augmented:
            break
        for b in range(n, 2 * n):
            if blossomparent[b] == -1 and blossombase[b] >= 0 and label[b] == 1 and dualvar[b] == 0:
                expand_blossom(b, True)

    return WeightedMatching([endpoint[p] if p >= 0 else -1 for p in mate], dualvar, blossomparent)
