# Korean dates as Korean readers write them: "2026년 12월 7일" (Django's), and the time on the
# 24-hour clock as the other pages write it ("2026년 12월 7일 14:30"; Django's "g:i A" puts 오후
# after the time, where Korean puts it before). Short dates: "2026. 12. 7.", the way of Korean
# forms and notices.
DATE_FORMAT = "Y년 n월 j일"
DATETIME_FORMAT = "Y년 n월 j일 H:i"
DATETIME_SECONDS_FORMAT = "Y년 n월 j일 H:i:s"
TIME_FORMAT = "H:i"
YEAR_MONTH_FORMAT = "Y년 n월"
MONTH_DAY_FORMAT = "n월 j일"
SHORT_DATE_FORMAT = "Y. n. j."
SHORT_DATETIME_FORMAT = "Y. n. j. H:i"
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
