# Arabic dates and numbers as readers in the Gulf and Egypt read them on a website.
#
# Digits: Latin (0-9), not Arabic-Indic (U+0660-U+0669). Both are read in Egypt and the Gulf, and
# Latin digits are the common choice of websites there (Egyptian print keeps Arabic-Indic ones more
# often); what decides is that on this service a number sits beside data that must stay Latin
# because players copy and type it (a match ID, a Position ID, the moves
# "13/7 8/7", a score "5-3"): one page with two digit systems reads worse than one with Latin
# digits throughout. Django has no digit shaping either: Arabic-Indic digits would need every
# number on every page passed through a filter, and one forgotten would mix them.
#
# Separators: with Latin digits, the decimal point "." and the thousands comma "," (the symbols
# Unicode's CLDR gives Arabic written with Latin digits): a rating reads "1543.87". Django's Arabic
# formats write the European decimal comma ("1543,87"), which a reader in Cairo or Riyadh takes for
# a thousands separator. The Arabic separators (U+066B decimal, U+066C thousands) belong with Arabic-Indic
# digits and look like slips beside Latin ones.
#
# Dates: "7 ديسمبر 2026", the months as Egypt and the Gulf name them (Django's catalog), without
# Django's comma before the year; the time on the 24-hour clock as the other pages write it. A date
# is Arabic text: a page never isolates it left to right (only Latin data such as IDs).
DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "j F Y، H:i"
DATETIME_SECONDS_FORMAT = "j F Y، H:i:s"
TIME_FORMAT = "H:i"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j F"
# Day, month, year (Django's, with its right-to-left marks so the parts read right to left).
SHORT_DATE_FORMAT = "d\u200f/m\u200f/Y"
SHORT_DATETIME_FORMAT = "d\u200f/m\u200f/Y H:i"
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
