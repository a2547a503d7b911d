"""Maximum-cardinality matching on a dense graph (Edmonds' blossom algorithm), for Swiss pairing.

The graph is given by what it lacks, because a Swiss round is nearly a complete graph: vertices
``0..n-1``, and ``u``-``v`` is an edge unless ``v in blocked[u]`` (a rematch, a pair the
organiser forbids) or ``group[u] == group[v]`` is not None (same club). Neighbours are found by
scanning the live vertices, so nothing of size n² is ever built.

:class:`Matcher` keeps a maximum matching of the live vertices and supports the two moves the
Swiss pairing needs: take a vertex out (the bye), and fix a pair (two players paired for good),
each kept only if a perfect matching of the rest still exists. The rest had a perfect matching
before; taking out matched vertices frees their partners, and the rest is perfectly matchable
again iff an augmenting path joins the two free vertices. Tried cheapest first: the two are
compatible; a path ``a - u = w - b`` through one matched pair (one scan); a group holding more
than half of the rest rules it out at once; else the full search, the classic BFS with blossom
contraction (Edmonds 1965, in the form of e-maxx "Edmonds' algorithm for maximum matching in
general graphs"), whose failed search trees :meth:`Matcher.maximise` also prunes.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections import Counter, deque
from collections.abc import Hashable, Sequence


class Matcher:
    def __init__(self, n: int, blocked: Sequence[set[int]], group: Sequence[Hashable | None]):
        self.n = n
        self.blocked = blocked
        self.group = group
        self.mate = [-1] * n
        self.alive = list(range(n))  # sorted: vertex numbers are ranks
        self.counts = Counter(g for g in group if g is not None)  # live vertices per group

    # --- the graph -------------------------------------------------------------------------

    def compatible(self, u: int, v: int) -> bool:
        if u == v or v in self.blocked[u]:
            return False
        g = self.group[u]
        return g is None or g != self.group[v]

    def _neighbours(self, v: int, dead: set[int]):
        blocked, group, g = self.blocked[v], self.group, self.group[v]
        if dead:
            blocked = blocked | dead
        if g is None:
            return [u for u in self.alive if u != v and u not in blocked]
        return [u for u in self.alive if u != v and u not in blocked and group[u] != g]

    # --- a maximum matching ------------------------------------------------------------------

    def maximise(self) -> int:
        """Make the matching of the live vertices maximum; return its size."""
        mate = self.mate
        free = deque(v for v in self.alive if mate[v] == -1)
        waiting: list[int] = []
        while free:  # greedy first: in a dense graph it leaves almost nobody
            v = free.popleft()
            for i, u in enumerate(free):
                if self.compatible(v, u):
                    mate[v], mate[u] = u, v
                    del free[i]
                    break
            else:
                waiting.append(v)
        # A free vertex with no augmenting path now never gets one later, and neither do the
        # vertices of its failed search tree (Edmonds' "Hungarian tree"): later searches skip them.
        dead: set[int] = set()
        for v in waiting:
            if mate[v] == -1 and v not in dead:
                end, parent, tree = self._search(v, dead)
                if end != -1:
                    self._augment(end, parent)
                else:
                    dead.update(tree)
        return sum(1 for v in self.alive if mate[v] != -1) // 2

    def free(self) -> list[int]:
        return [v for v in self.alive if self.mate[v] == -1]

    def _search(self, root: int, dead: set[int] = frozenset()) -> tuple[int, list[int], list[int]]:
        """An augmenting path from the free vertex ``root`` avoiding ``dead``: its free end (or
        -1), the parents to follow back, and the vertices the search reached."""
        n, mate = self.n, self.mate
        used = [False] * n
        parent = [-1] * n
        base = list(range(n))
        used[root] = True
        queue = deque([root])
        tree = [root]

        def lca(a: int, b: int) -> int:
            seen = set()
            while True:
                a = base[a]
                seen.add(a)
                if mate[a] == -1:
                    break
                a = parent[mate[a]]
            while True:
                b = base[b]
                if b in seen:
                    return b
                b = parent[mate[b]]

        def mark(v: int, b: int, child: int, blossom: set[int]) -> None:
            while base[v] != b:
                blossom.add(base[v])
                blossom.add(base[mate[v]])
                parent[v] = child
                child = mate[v]
                v = parent[mate[v]]

        while queue:
            v = queue.popleft()
            for to in self._neighbours(v, dead):
                if base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                    top = lca(v, to)
                    blossom: set[int] = set()
                    mark(v, top, to, blossom)
                    mark(to, top, v, blossom)
                    for i in tree:  # a blossom is made of vertices the search reached
                        if base[i] in blossom:
                            base[i] = top
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    if mate[to] == -1:
                        return to, parent, tree
                    used[mate[to]] = True
                    queue.append(mate[to])
                    tree.append(to)
                    tree.append(mate[to])
        return -1, parent, tree

    def _augment(self, end: int, parent: list[int]) -> None:
        mate = self.mate
        v = end
        while v != -1:
            pv = parent[v]
            ppv = mate[pv]
            mate[v], mate[pv] = pv, v
            v = ppv

    def _rejoin(self, a: int, b: int) -> bool:
        """Match the free vertices ``a`` and ``b`` back in: directly, by the commonest short
        path ``a - u = w - b`` (one scan), or by a full augmenting-path search."""
        mate = self.mate
        if self.compatible(a, b):
            mate[a], mate[b] = b, a
            return True
        for u in self.alive:
            w = mate[u]
            if w != -1 and u != b and w != a and self.compatible(a, u) and self.compatible(w, b):
                mate[a], mate[u], mate[w], mate[b] = u, a, b, w
                return True
        end, parent, _ = self._search(a)
        if end == -1:
            return False
        self._augment(end, parent)
        return True

    # --- the moves of the pairing ------------------------------------------------------------

    def _drop(self, v: int) -> None:
        del self.alive[bisect_left(self.alive, v)]
        if self.group[v] is not None:
            self.counts[self.group[v]] -= 1

    def _restore(self, v: int) -> None:
        insort(self.alive, v)
        if self.group[v] is not None:
            self.counts[self.group[v]] += 1

    def _crowded(self) -> bool:
        """Whether one group holds more than half of the live vertices: then no perfect matching
        exists (its members can only pair outside it). A quick necessary check that spares a
        full failed search in events where one club is half the field."""
        return bool(self.counts) and 2 * max(self.counts.values()) > len(self.alive)

    def remove(self, v: int) -> bool:
        """Take ``v`` out (the bye) if the rest can still be perfectly matched, given that the live
        vertices are matched but for one free vertex. Returns whether it was taken out."""
        partner = self.mate[v]
        if partner == -1:
            self._drop(v)
            return True
        (other,) = (u for u in self.free() if u != v)
        self._drop(v)
        self.mate[v] = self.mate[partner] = -1
        if not self._crowded() and self._rejoin(partner, other):
            return True
        self._restore(v)
        self.mate[v], self.mate[partner] = partner, v
        return False

    def fix(self, p: int, q: int) -> bool:
        """Pair ``p`` and ``q`` for good (both leave the graph) if that leaves a perfectly
        matchable rest, given that the live vertices are perfectly matched now."""
        if not self.compatible(p, q):
            return False
        mate = self.mate
        if mate[p] == q:
            self._drop(p)
            self._drop(q)
            return True
        p2, q2 = mate[p], mate[q]
        self._drop(p)
        self._drop(q)
        mate[p], mate[q], mate[p2], mate[q2] = q, p, -1, -1
        if not self._crowded() and self._rejoin(p2, q2):
            return True
        self._restore(p)
        self._restore(q)
        mate[p], mate[p2], mate[q], mate[q2] = p2, p, q2, q
        return False
