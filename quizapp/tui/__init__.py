"""The Textual study app: Home, Study, Quiz, Browse, Stats, Settings.

Only `quizapp.tui.app.make_app` is public. Importing this package is cheap: the
database layer is imported by a worker thread once the first frame is on screen.
"""
