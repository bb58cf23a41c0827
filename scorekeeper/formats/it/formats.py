# Italian as an Italian writes a date: 2 dicembre 2026 (Django writes "02 Dicembre 2026", and
# its date and time "Mercoledì 02 Dicembre 2026 13:38"); the months' lower case comes from our
# catalogue (scorekeeper/i18n/django_words.py). Every other format is Django's.
DATE_FORMAT = "j F Y"
MONTH_DAY_FORMAT = "j F"
DATETIME_FORMAT = "j F Y H:i"
SHORT_DATETIME_FORMAT = "j F Y H:i"
