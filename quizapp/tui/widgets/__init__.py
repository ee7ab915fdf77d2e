"""Small self-contained widgets shared by the screens."""
