"""The session's running ledger and settling up at the end (RULES.md §7).

:func:`ledger_add` keeps a running ledger of every game's settlement; :func:`settle_up` says who
pays whom at the end with the fewest transfers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..errors import ChouetteError
from .base import Player, is_int
from .record import Settlement


def ledger_add(ledger: Mapping[Player, int], settlement: Settlement) -> dict[Player, int]:
    """A new running ledger: ``ledger`` plus the game's amounts, player by player.

    Returns a new dict (the input is not changed) that includes every player seen so far and still
    sums to zero. Raises :class:`ChouetteError` ``ledger_unbalanced`` if ``ledger`` does not sum to
    zero (a hand-edited or corrupted ledger).
    """
    if sum(ledger.values()) != 0:
        raise ChouetteError(f"the ledger sums to {sum(ledger.values())}, not 0", code="ledger_unbalanced")
    totals = dict(ledger)
    for player, amount in settlement.amounts.items():
        totals[player] = totals.get(player, 0) + amount
    return totals


EXACT_SETTLE_LIMIT = 14
"""Up to this many non-zero balances :func:`settle_up` is exact (a subset search over 2**n groups)."""


def _sorted_players(players: Iterable[Player]) -> list[Player]:
    players = list(players)
    try:
        return sorted(players)
    except TypeError:  # mixed id types: order them by type, then by their text
        return sorted(players, key=lambda player: (type(player).__name__, repr(player)))


def _settle_group(balances: list[tuple[Player, int]]) -> list[tuple[Player, Player, int]]:
    """Largest debtor pays largest creditor until all are square: at most len(balances) - 1
    transfers, since every transfer squares at least one of them and the last squares two."""
    rank = {player: index for index, (player, _) in enumerate(balances)}
    debts = {player: -amount for player, amount in balances if amount < 0}
    credits = {player: amount for player, amount in balances if amount > 0}
    transfers = []
    while debts:
        payer = max(debts, key=lambda player: (debts[player], -rank[player]))
        payee = max(credits, key=lambda player: (credits[player], -rank[player]))
        amount = min(debts[payer], credits[payee])
        transfers.append((payer, payee, amount))
        for book, player in ((debts, payer), (credits, payee)):
            book[player] -= amount
            if not book[player]:
                del book[player]
    return transfers


def _zero_sum_groups(amounts: list[int]) -> list[list[int]]:
    """Split the indexes of ``amounts`` (summing to 0) into as many zero-sum groups as possible.

    Each group of k balances needs k - 1 transfers and no fewer, so the most groups gives the fewest
    transfers. best[mask] is the most complete zero-sum groups that the members of ``mask`` form when
    added one at a time; a group closes whenever the running set sums to zero.
    """
    n = len(amounts)
    size = 1 << n
    total = [0] * size
    best = [0] * size
    for mask in range(1, size):
        low = mask & -mask
        total[mask] = total[mask ^ low] + amounts[low.bit_length() - 1]
        most = 0
        rest = mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            if best[mask ^ bit] > most:
                most = best[mask ^ bit]
        best[mask] = most + (total[mask] == 0)
    # Walk back from the full set, taking members off in an order that keeps best[] on track; the
    # running set summed to zero exactly where one group ends and the next begins.
    order, mask = [], size - 1
    while mask:
        closes = total[mask] == 0
        for index in range(n):
            bit = 1 << index
            if mask & bit and best[mask ^ bit] + closes == best[mask]:
                order.append(index)
                mask ^= bit
                break
    order.reverse()
    groups, current, running = [], [], 0
    for index in order:
        current.append(index)
        running += amounts[index]
        if running == 0:
            groups.append(current)
            current = []
    return groups


def settle_up(ledger: Mapping[Player, int]) -> list[tuple[Player, Player, int]]:
    """Who pays whom at the end of a session: ``[(payer, payee, points), ...]`` with the fewest transfers.

    With up to :data:`EXACT_SETTLE_LIMIT` non-zero balances the answer is minimal: the balances are
    split into as many zero-sum groups as possible (a subset search), each settled within itself in
    one transfer fewer than its size. Beyond that a greedy settlement (the largest debtor pays the
    largest creditor) is used, which never needs more than n - 1 transfers but is not always minimal.
    The order is deterministic: by payer, then payee (players sorted, mixed id types by type and text).

    Raises :class:`ChouetteError` ``bad_ledger`` for an amount that is not whole points and
    ``ledger_unbalanced`` when the ledger does not sum to zero.
    """
    for player, amount in ledger.items():
        if not is_int(amount):
            raise ChouetteError(f"{player!r}'s balance {amount!r} is not whole points", code="bad_ledger", player=player)
    if sum(ledger.values()) != 0:
        raise ChouetteError(f"the ledger sums to {sum(ledger.values())}, not 0", code="ledger_unbalanced")
    players = _sorted_players(player for player, amount in ledger.items() if amount)
    balances = [(player, ledger[player]) for player in players]
    if len(balances) <= EXACT_SETTLE_LIMIT:
        groups = _zero_sum_groups([amount for _, amount in balances])
        transfers = [move for group in groups for move in _settle_group([balances[index] for index in group])]
    else:
        transfers = _settle_group(balances)
    rank = {player: index for index, player in enumerate(players)}
    return sorted(transfers, key=lambda move: (rank[move[0]], rank[move[1]]))


__all__ = [
    "EXACT_SETTLE_LIMIT",
    "ledger_add",
    "settle_up",
]
