"""The language a page speaks.

The browser's language first (``Accept-Language``, Django's ``LocaleMiddleware``), unless the
visitor chose one: the picker in the top bar and the account page post to
:func:`views.language_set`, Django's ``set_language`` that also keeps an account's choice
(``AccountSettings.language``). The choice travels in Django's language cookie, which
``LocaleMiddleware`` reads on every request; an account's choice is put in that cookie again
whenever the account logs in, on any device (:mod:`.middleware`). A page is never said to be
in a language whose catalogue is not compiled: it is drawn in English then, and says so.
"""
