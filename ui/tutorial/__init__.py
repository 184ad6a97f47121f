"""Guided first deals (issue 21 part 1): one lesson per game (`ui.tutorial.<game>`, data only)
played on the game's table by one controller (`ui.tutorial.controller`)."""
