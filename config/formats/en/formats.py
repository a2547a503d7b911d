# Crawford's English dates, as its pages always wrote them ("2 Dec 2026", "2 Dec 2026 14:30");
# config/formats/<language> holds each language's own, what Django's formats for it leave out or
# write otherwise. Templates name a format (date:"DATE_FORMAT"), never spell one out.
DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y H:i"
# The audit log's and the webhooks' moments, to the second (core/templatetags/moments.py).
DATETIME_SECONDS_FORMAT = "j M Y H:i:s"
TIME_FORMAT = "H:i"
YEAR_MONTH_FORMAT = "M Y"
MONTH_DAY_FORMAT = "j M"
# A date in a table's column: the same width on every row, and no month/day order to guess.
SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
