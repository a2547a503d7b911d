"""The table's options (RULES.md §7).

:class:`ChouetteSettings` holds the table's options: one cube per member or a single cube, Jacoby,
beavers and raccoons, the limit on automatic doubles, from how many players the Box may take a
partner, and the two house options of §7.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ChouetteError
from .base import is_int


@dataclass(frozen=True, slots=True)
class ChouetteSettings:
    """The table's chouette options (stored with the session and shown to players).

    - ``single_cube``: the team shares one cube instead of one cube per member.
    - ``jacoby``: gammons and backgammons count single for a member whose cube was never turned
      (an automatic double turns it, RULES.md §2).
    - ``box_must_take_half``: when all the active team cubes are turned at once, the Box must take at
      least half of them or pass them all.
    - ``lone_taker_must_beaver``: when the Box doubles two or more members and only one of them
      stays in, he must beaver (so it needs ``beavers``).
    - ``beavers``: a member may beaver the Box's double, and the Box a member's double.
    - ``raccoons``: the doubler may raccoon a beaver (needs ``beavers``).
    - ``automatic_doubles``: how many ties on the opening roll double every cube (0: none).
    - ``box_partner_from``: the Box may take a partner from the crew when the line-up has at least this
      many players (3 or more; ``None``: never). The partner is optional: the Box may play alone.

    The defaults keep the behaviour of the first version (beavers allowed, a partner allowed from
    three players); a service should pass every option explicitly.

    Raises :class:`ChouetteError` ``bad_settings`` for an option of the wrong type, a negative limit,
    ``box_partner_from`` below 3 or ``lone_taker_must_beaver`` without beavers, and
    ``raccoons_without_beavers``. ``details['field']`` names the option.
    """

    single_cube: bool = False
    jacoby: bool = True
    box_must_take_half: bool = False
    lone_taker_must_beaver: bool = False
    beavers: bool = True
    raccoons: bool = False
    automatic_doubles: int = 0
    box_partner_from: int | None = 3

    def __post_init__(self) -> None:
        for name in ("single_cube", "jacoby", "box_must_take_half", "lone_taker_must_beaver", "beavers", "raccoons"):
            if not isinstance(getattr(self, name), bool):
                raise ChouetteError(f"{name} is true or false, not {getattr(self, name)!r}", code="bad_settings",
                                    field=name)
        if not is_int(self.automatic_doubles) or self.automatic_doubles < 0:
            raise ChouetteError(
                f"the automatic doubles limit is 0 or more, not {self.automatic_doubles!r}",
                code="bad_settings", field="automatic_doubles",
            )
        if self.box_partner_from is not None and (not is_int(self.box_partner_from) or self.box_partner_from < 3):
            raise ChouetteError(
                f"a Box partner comes from the crew, so the line-up needs 3 or more players, not {self.box_partner_from!r}",
                code="bad_settings", field="box_partner_from",
            )
        if self.raccoons and not self.beavers:
            raise ChouetteError("raccoons are allowed only where beavers are", code="raccoons_without_beavers",
                                field="raccoons")
        if self.lone_taker_must_beaver and not self.beavers:
            raise ChouetteError("a lone taker cannot be made to beaver at a table without beavers",
                                code="bad_settings", field="lone_taker_must_beaver")

    def box_partner_allowed(self, players: int) -> bool:
        """May the Box take a partner when the line-up has ``players`` players?"""
        return self.box_partner_from is not None and players >= self.box_partner_from


__all__ = [
    "ChouetteSettings",
]
