"""One module per screen; each is imported when the screen is first opened."""
