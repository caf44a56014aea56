"""One date style per language (settings.FORMAT_MODULE_PATH).

Every date the site shows goes through Django's named formats: a day is DATE_FORMAT and a
moment DATETIME_FORMAT, and the short names give the same text, so a page never shows
"22/11/2026" beside "22 nov 2026". A day: "22 Nov 2026" (en), "22 nov 2026" (it, es, fr),
"22. Nov 2026" (de); a moment adds ", 20:30" (24-hour clock everywhere).
"""
