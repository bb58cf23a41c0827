# Greek as a Greek writes a date in a sentence: the month in the genitive (2 Δεκεμβρίου 2026,
# where Django writes 02/12/2026 and "2 Δεκέμβριος"), and the 24-hour clock (13:38, where
# Django's 12-hour "1:38 μμ." ended a sentence in two full stops). Every other format is
# Django's.
DATE_FORMAT = "j E Y"
MONTH_DAY_FORMAT = "j E"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j E Y H:i"
SHORT_DATETIME_FORMAT = "j E Y H:i"
