"""Shared test settings: Kivy must never read the user's ~/.kivy or parse pytest's arguments."""

import os
import tempfile

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_USE_DEFAULTCONFIG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="parlor-kivy-"))
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
