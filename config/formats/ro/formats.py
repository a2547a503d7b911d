# Romanian dates as Romanian writes them: the months in lower case, "7 decembrie 2026". Django's
# Romanian catalog capitalises its month names ("Decembrie", for F), so the dates use E, Django's
# "month as written inside a date" (msgctxt "alt. month"), whose Romanian names the project's own
# catalogs give in lower case (the project's catalogs outrank Django's). Numbers: the decimal
# comma and the thousands point ("1543,87", "12.500").
from django.utils.translation import pgettext_lazy

DATE_FORMAT = "j E Y"
DATETIME_FORMAT = "j E Y, H:i"
DATETIME_SECONDS_FORMAT = "j E Y, H:i:s"
TIME_FORMAT = "H:i"
YEAR_MONTH_FORMAT = "E Y"
MONTH_DAY_FORMAT = "j E"
SHORT_DATE_FORMAT = "d.m.Y"
SHORT_DATETIME_FORMAT = "d.m.Y, H:i"
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "."
NUMBER_GROUPING = 3

# The month names E reads, marked here so the project's catalogs keep them (every language's
# catalog gives them: Korean and Arabic as Django's, Romanian in lower case).
MONTHS_IN_A_DATE = (
    pgettext_lazy("alt. month", "January"), pgettext_lazy("alt. month", "February"),
    pgettext_lazy("alt. month", "March"), pgettext_lazy("alt. month", "April"),
    pgettext_lazy("alt. month", "May"), pgettext_lazy("alt. month", "June"),
    pgettext_lazy("alt. month", "July"), pgettext_lazy("alt. month", "August"),
    pgettext_lazy("alt. month", "September"), pgettext_lazy("alt. month", "October"),
    pgettext_lazy("alt. month", "November"), pgettext_lazy("alt. month", "December"),
)
