"""Phones at the table: a second user interface served over the LAN (issue 22).

`protocol` (the JSON messages of docs/protocol.md), `views` (each game's observation as JSON),
`host` (the game side, on the thread that owns the session), `server` (HTTP + WebSocket on one
background thread), `qr` (the join URL as a QR code) and `static/` (the phone's page). Nothing
here imports Kivy: the kiosk hands the host a `post` callable that runs work through its Clock.
"""
