# English as the pages always wrote it (the score pads of European tables): a score's
# thousands apart by a thin space (1 245), where a comma would read as a list beside other
# numbers; the day before the month (5 Dec 2026) and the 24-hour clock (14:30). Every other
# format, and the other languages', are Django's.
THOUSAND_SEPARATOR = "\u2009"
DATE_FORMAT = "j M Y"
MONTH_DAY_FORMAT = "j M"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j M Y H:i"
SHORT_DATETIME_FORMAT = "j M Y H:i"
