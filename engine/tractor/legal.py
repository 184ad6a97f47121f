"""Lazy sets of legal card choices: count, index, test and sample without listing every set.

A Tractor follow when void (or the burial of 8 of 33 cards) can allow thousands to millions of
card sets. Each such set has one shape: the cards `fixed` (forced, e.g. every card of the led suit)
plus any `m` more cards chosen from a pool of counts, with at least `q` identical pairs among the
chosen (T-20). `Combos` counts those choices with a small dynamic programme over the pool's kinds,
unranks an index into a choice (so `sample` is uniform over legal actions, not over cards), and
can list them in plain-string order (records.md `legal`) lazily, without building the rest.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

from engine.tractor.cards import CODES, format_cards

Action = tuple[int, ...]


class Combos(Sequence):
    """The actions `prefix + sorted(fixed + chosen)`, chosen = `m` cards of `pool` with >= q pairs."""

    __slots__ = ("prefix", "head", "fixed", "items", "m", "q", "_ways", "_flat", "_contains")

    def __init__(
        self,
        prefix: Action,
        fixed: tuple[int, ...],
        pool: Sequence[tuple[int, int]],
        m: int,
        q: int,
        contains: Callable[[Action], bool],
        head: str = "",
    ) -> None:
        self.prefix = prefix
        self.head = head  # the verb's text before the cards ("bury "), empty for plays
        self.fixed = fixed
        self.items = tuple(pool)  # (kind, count available), kinds ascending
        self.m = m
        self.q = q
        self._ways: list[list[list[int]]] | None = None
        self._flat: list[list[int]] | None = None  # q = 0: flat[j][r] = ways[j][r][0]
        self._contains = contains

    # -- counting: ways[j][r][p] = choices of r cards from items[j:] with at least p pairs --------
    def _table(self) -> list[list[list[int]]]:
        if self._ways is None and self.q == 0:
            self._ways = [[[v] for v in row] for row in self._table_no_pairs()]
        if self._ways is None:
            m, q, items = self.m, self.q, self.items
            last = [[1 if (r == 0 and p == 0) else 0 for p in range(q + 1)] for r in range(m + 1)]
            ways = [last]
            for _kind, cnt in reversed(items):
                nxt = last
                cur = [[0] * (q + 1) for _ in range(m + 1)]
                for r in range(m + 1):
                    row = cur[r]
                    for p in range(q + 1):
                        total = nxt[r][p]
                        if r >= 1:
                            total += nxt[r - 1][p]
                            if cnt == 2 and r >= 2:
                                total += nxt[r - 2][p - 1 if p else 0]
                        row[p] = total
                ways.append(cur)
                last = cur
            ways.reverse()
            self._ways = ways
        return self._ways

    def _table_no_pairs(self) -> list[list[int]]:
        """The same table when no pair is required (q = 0): one count per (j, r), built as flat
        rows, which is several times faster (burials and void follows use it); counting and
        unranking read these rows directly (`_flat`)."""
        if self._flat is not None:
            return self._flat
        m = self.m
        last = [1] + [0] * m
        rows = [last]
        for _kind, cnt in reversed(self.items):
            if cnt == 2:
                cur = [last[0], last[1] + last[0]] + [
                    last[r] + last[r - 1] + last[r - 2] for r in range(2, m + 1)]
            else:
                cur = [last[0]] + [last[r] + last[r - 1] for r in range(1, m + 1)]
            rows.append(cur[: m + 1])
            last = cur
        rows.reverse()
        self._flat = rows
        return rows

    def __len__(self) -> int:
        if self.q == 0:
            return self._table_no_pairs()[0][self.m]
        return self._table()[0][self.m][self.q]

    def _unrank_no_pairs(self, index: int) -> Action:
        """`_unrank` when no pair is required, on the flat rows (the same choice)."""
        rows = self._table_no_pairs()
        r = self.m
        chosen = list(self.fixed)
        for j, (kind, cnt) in enumerate(self.items):
            if r == 0:
                break
            nxt = rows[j + 1]
            for c in range(0, min(cnt, r) + 1):
                w = nxt[r - c]
                if index < w:
                    if c:
                        chosen.extend((kind,) * c)
                    r -= c
                    break
                index -= w
        chosen.sort()
        return self.prefix + tuple(chosen)

    def _unrank(self, index: int) -> Action:
        if self.q == 0:
            return self._unrank_no_pairs(index)
        ways = self._table()
        r, p = self.m, self.q
        chosen = list(self.fixed)
        for j, (kind, cnt) in enumerate(self.items):
            if r == 0:
                break
            nxt = ways[j + 1]
            for c in range(0, min(cnt, r) + 1):
                np_ = (p - 1 if p else 0) if c == 2 else p
                w = nxt[r - c][np_]
                if index < w:
                    if c:
                        chosen.extend((kind,) * c)
                    r, p = r - c, np_
                    break
                index -= w
        chosen.sort()
        return self.prefix + tuple(chosen)

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("legal action index out of range")
        return self._unrank(index)

    def __iter__(self) -> Iterator[Action]:
        """Every action, in index order, by a depth-first walk pruned by the counting table."""
        ways = self._table()
        items, prefix, fixed = self.items, self.prefix, list(self.fixed)
        chosen: list[int] = []

        def walk(j: int, r: int, p: int) -> Iterator[Action]:
            if r == 0 and p == 0:
                yield prefix + tuple(sorted(fixed + chosen))
                return
            kind, cnt = items[j]
            nxt = ways[j + 1]
            for c in range(0, min(cnt, r) + 1):
                np_ = (p - 1 if p else 0) if c == 2 else p
                if nxt[r - c][np_]:
                    chosen.extend((kind,) * c)
                    yield from walk(j + 1, r - c, np_)
                    if c:
                        del chosen[-c:]

        if ways[0][self.m][self.q]:
            yield from walk(0, self.m, self.q)

    def __contains__(self, action: object) -> bool:
        return isinstance(action, tuple) and self._contains(action)

    def __reduce__(self) -> tuple:
        """Pickled (for the UI's bot process), a set keeps its shape, and its membership test
        becomes `Members`: the same test read off that shape (the state's checker, which the
        set was built with, does not pickle)."""
        members = Members(self.prefix, self.fixed, self.items, self.m, self.q)
        return (Combos, (self.prefix, self.fixed, self.items, self.m, self.q, members,
                         self.head))

    def sample(self, rng: random.Random) -> Action:
        """A uniformly random legal action."""
        return self._unrank(rng.randrange(len(self)))

    # -- records.md listing: canonical texts sorted as plain strings, first `limit` only --------
    def texts(self, limit: int) -> list[str]:
        """The first `limit` actions' canonical texts in plain-string order, built lazily.

        A text lists its cards in canonical (kind) order and no card code is a prefix of another,
        so plain-string order is the lexicographic order of the sorted kind sequences compared code
        by code. A depth-first search builds the sequence card by card, trying candidates in code
        order and pruning branches that cannot be completed, and stops after `limit` texts.
        """
        if len(self) <= 4 * limit:  # small sets: simply list, format and sort them all
            cut = len(self.prefix)
            return sorted(self.head + format_cards(a[cut:]) for a in self)[:limit]
        avail = dict(self.items)
        kinds = sorted(avail)
        fixed = sorted(self.fixed)
        used = dict.fromkeys(kinds, 0)
        head = self.head
        out: list[str] = []
        seq: list[int] = []

        def feasible(last: int, r: int, pairs: int) -> bool:
            if r == 0:
                return pairs <= 0
            total = slots = cheap = 0
            for k in kinds:
                left = avail[k] - used[k]
                if k > last:
                    total += left
                    slots += left == 2
                elif k == last and left == 1 and used[k] == 1:
                    total += 1
                    cheap = 1
            if total < r:
                return False
            if pairs <= 0:
                return True
            return pairs <= slots + cheap and 2 * pairs - cheap <= r

        def rec(fi: int, r: int, pairs: int, last: int) -> None:
            if fi == len(fixed) and r == 0:
                out.append(head + " ".join(CODES[k] for k in seq))
                return
            fmin = fixed[fi] if fi < len(fixed) else 1 << 30
            cands = [k for k in kinds if r and k < fmin and used[k] < avail[k]
                     and (k > last or k == last)]
            if fi < len(fixed):
                cands.append(fmin)
            for k in sorted(cands, key=CODES.__getitem__):
                seq.append(k)
                if fi < len(fixed) and k == fmin:
                    if feasible(k, r, pairs):
                        rec(fi + 1, r, pairs, k)
                else:
                    used[k] += 1
                    made = pairs - 1 if used[k] == 2 else pairs
                    if feasible(k, r - 1, made):
                        rec(fi, r - 1, made, k)
                    used[k] -= 1
                seq.pop()
                if len(out) >= limit:
                    return

        rec(0, self.m, self.q, -1)
        return out


class Members:
    """Membership in the set of a `Combos`, read off its shape: `prefix`, then the cards of
    `fixed` plus `m` more from the pool `items` ((kind, count available)), in any order, with
    at least `q` identical pairs among those `m`. Picklable; the tests hold it equal to the
    state's own checker on the sets of seeded deals."""

    __slots__ = ("prefix", "fixed", "avail", "m", "q")

    def __init__(self, prefix: Action, fixed: tuple[int, ...],
                 items: Sequence[tuple[int, int]], m: int, q: int) -> None:
        self.prefix, self.fixed, self.avail, self.m, self.q = prefix, fixed, dict(items), m, q

    def __call__(self, action: Action) -> bool:
        cut = len(self.prefix)
        if action[:cut] != self.prefix or len(action) != cut + len(self.fixed) + self.m:
            return False
        counts: dict[int, int] = {}
        for k in action[cut:]:
            if type(k) is not int:
                return False
            counts[k] = counts.get(k, 0) + 1
        for k in self.fixed:
            left = counts.get(k, 0) - 1
            if left < 0:
                return False
            counts[k] = left
        pairs = 0
        for k, c in counts.items():
            if c > self.avail.get(k, 0):
                return False
            pairs += c == 2
        return pairs >= self.q

    def __reduce__(self) -> tuple:
        return (Members, (self.prefix, self.fixed, tuple(self.avail.items()), self.m, self.q))
