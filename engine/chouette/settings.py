"""The table's options (RULES.md §7).

:class:`ChouetteSettings` holds the table's options: one cube per member or a single cube, Jacoby,
beavers and raccoons, the limit on automatic doubles, from how many players the Box may take a
partner, and the house rules clubs play by (each one a setting of the table, its rule named by the
code a game that breaks it is refused with).

The house rules are club conventions, not a federation's published rules; where one is cited below it
is described in our own words from the club rule sheets it comes from (no section numbers exist):

- ``three_handed_both_cubes``: at a table of three (Box, Captain, one crew member), when both team
  cubes are turned at once the Box takes both or passes both (the Eskilstuna club's sheet words it as
  an exception to "take at least half" for three players);
- ``box_must_take_captain``: the Box may not pass the Captain's cube while taking another member's at
  the same moment, unless he had already taken another member's cube earlier in the game (Backgammon
  ACT's and backgammontips' club rules: "where possible the Box must take the Captain's cube", with that
  exception);
- ``take_half_initial_only``: "take at least half" (``box_must_take_half``) applies only when the cubes
  turned are initial ones, turned from the centre (the Eskilstuna sheet's wording);
- ``captain_alone_must_beaver``: when the Box doubles the Captain together with other members and the
  Captain is the only one to stay in, he must beaver (the "lone taker must beaver" rule narrowed to
  the Captain);
- ``box_partner_next_in_line``: the partner convention of Kit Woolsey's chouette regulations for FIBS
  (our wording): the Box's partner is the player next in line (the first crew member); when the Box
  wins, the partnership keeps the Box and the partner stays next in line while the member after him
  captains; when the Box loses, the partner becomes the Captain;
- ``jacoby_counts_automatic``: whether an automatic double turns the cube for Jacoby. gnubg and most
  club rule sheets say it does not (a cube is "in the game" only once turned by hand and accepted):
  with ``False``, a member whose cube was turned only by automatic doubles still has gammons counted
  single. The engine's default (``True``) counts them, as the tables started before this setting
  existed still do; the service makes ``False`` the default for new tables.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ChouetteError
from .base import is_int

BOOLEAN_OPTIONS = (
    "single_cube", "jacoby", "box_must_take_half", "lone_taker_must_beaver", "beavers", "raccoons",
    "three_handed_both_cubes", "box_must_take_captain", "take_half_initial_only", "captain_alone_must_beaver",
    "box_partner_next_in_line", "jacoby_counts_automatic",
)


@dataclass(frozen=True, slots=True)
class ChouetteSettings:
    """The table's chouette options (stored with the session and shown to players).

    - ``single_cube``: the team shares one cube instead of one cube per member.
    - ``jacoby``: gammons and backgammons count single for a member whose cube was never turned
      (an automatic double turns it, RULES.md §2, unless ``jacoby_counts_automatic`` is off).
    - ``box_must_take_half``: when all the active team cubes are turned at once, the Box must take at
      least half of them or pass them all.
    - ``lone_taker_must_beaver``: when the Box doubles two or more members and only one of them
      stays in, he must beaver (so it needs ``beavers``).
    - ``beavers``: a member may beaver the Box's double, and the Box a member's double.
    - ``raccoons``: the doubler may raccoon a beaver (needs ``beavers``).
    - ``automatic_doubles``: how many ties on the opening roll double every cube (0: none).
    - ``box_partner_from``: the Box may take a partner from the crew when the line-up has at least this
      many players (3 or more; ``None``: never). The partner is optional: the Box may play alone.

    - ``three_handed_both_cubes``, ``box_must_take_captain``, ``take_half_initial_only`` (needs
      ``box_must_take_half``), ``captain_alone_must_beaver`` (needs ``beavers``),
      ``box_partner_next_in_line`` and ``jacoby_counts_automatic``: the house rules of the module
      docstring.

    The defaults keep the behaviour of the first version (beavers allowed, a partner allowed from
    three players, every house rule off, an automatic double counting for Jacoby); a service should
    pass every option explicitly.

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
    # The house rules (see the module docstring).
    three_handed_both_cubes: bool = False
    box_must_take_captain: bool = False
    take_half_initial_only: bool = False
    captain_alone_must_beaver: bool = False
    box_partner_next_in_line: bool = False
    jacoby_counts_automatic: bool = True

    def __post_init__(self) -> None:
        for name in BOOLEAN_OPTIONS:
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
        if self.captain_alone_must_beaver and not self.beavers:
            raise ChouetteError("a Captain taking alone cannot be made to beaver at a table without beavers",
                                code="bad_settings", field="captain_alone_must_beaver")
        if self.take_half_initial_only and not self.box_must_take_half:
            raise ChouetteError("\"initial cubes only\" narrows the \"take at least half\" rule, which is off",
                                code="bad_settings", field="take_half_initial_only")

    def box_partner_allowed(self, players: int) -> bool:
        """May the Box take a partner when the line-up has ``players`` players?"""
        return self.box_partner_from is not None and players >= self.box_partner_from


__all__ = [
    "BOOLEAN_OPTIONS",
    "ChouetteSettings",
]
