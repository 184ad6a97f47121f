"""The appliance: config, data directory, SQLite store, CLI, composition root, systemd service."""

__version__ = "0.1.0"  # used when the package metadata is absent (a PyInstaller bundle)
