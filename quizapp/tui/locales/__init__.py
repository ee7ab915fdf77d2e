"""UI string catalogs, one module per language, each a flat `MESSAGES` dict."""
