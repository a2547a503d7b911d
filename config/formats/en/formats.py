# Crawford's English dates, as its pages always wrote them ("2 Dec 2026", "2 Dec 2026 14:30");
# the other languages take Django's formats for their language (config/formats/ar fills a gap).
DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y H:i"
YEAR_MONTH_FORMAT = "M Y"
