"""quizapp in a browser: the TUI served through textual-serve (`quizapp serve`)."""
