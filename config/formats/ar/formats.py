# Django's Arabic formats have no DATETIME_FORMAT (the English one would be used): its date, then
# the time on the 24-hour clock as the other pages write it.
DATETIME_FORMAT = "j F، Y H:i"
