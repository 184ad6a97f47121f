"""The app's screens: one Python module (properties, verbs) and one .kv file (layout) each."""
