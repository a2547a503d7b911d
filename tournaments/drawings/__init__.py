"""An event's drawings: the bracket as SVG on the pages (bracket_svg) and as a whole SVG file or PNG
image to download (bracket_export), the paper sheets as PDF (paper), and how each file is drawn once
per state of the event, kept and throttled (renders)."""
