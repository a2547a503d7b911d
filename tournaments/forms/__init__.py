"""An event's HTML forms, shape validation only: the event's rules, entries and draw (event),
divisions and handicaps (divisions), editing and cancelling an event (life), a walk-in entrant
(walkins)."""
