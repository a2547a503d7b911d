"""HTML forms of the matches app's pages, one module per area (the match page, clocks, the
directory, penalties, players, walk-ins): shape validation only."""
