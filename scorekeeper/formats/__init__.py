"""The site's own number and date formats (``settings.FORMAT_MODULE_PATH``), over Django's
for each language: only what differs is written here."""
