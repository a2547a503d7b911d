"""An event's read paths shared by the API and the pages: the event, its entrants, rounds, bracket and
standings (event); the round desk's view (desk); the paid places (payouts); a modified Swiss's
playoff contention (playoffs)."""
