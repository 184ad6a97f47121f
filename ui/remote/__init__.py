"""Phones at the table: a second user interface served over the LAN (issue 22).

`protocol` (the JSON messages of docs/protocol.md), `views` (each game's observation as JSON),
`decisions` (a seat's own decision: prompt, buttons, playable and blocked cards), `host` (the
game side, on the thread that owns the session), `server` (HTTP + WebSocket on one background
thread), `admission` (who may connect: token holders' and strangers' pools, the table code), `address` and `qr` (where to listen, the join URL and its QR code), `settings`
(`[network]`), `headless` (the owner thread without Kivy: tests, benches, screenshots), `art`
(the kiosk's card pictures as one sheet per game, `static/cards/`) and `static/` (the page).
Nothing here imports Kivy.

How the kiosk wires it (all on the Kivy thread unless said):

    plans = [SeatPlan("phone", "Linh"), SeatPlan("ai", level="normal"), ...]  # seating screen
    host = Host(session, plans, apply=driver.apply, on_event=table.seat_roles.on_phone_event)
    post = lambda job: Clock.schedule_once(lambda _dt: job())   # any thread -> Kivy thread
    server = PhoneServer(host, post, bind=bind_address(net.bind), port=net.port,
                         grace=net.grace_seconds, **PhoneServer.saved_keys(saved))
    server.start()                       # OSError if the port is taken: say so on screen
    url = join_url(lan_address(net.bind), server.port, server.token)   # seat=N: per seat
    matrix = qr_matrix(url)              # draw it on the seating screen
    code = server.code.shown()           # the table code, under it ("" once locked)
    ...after every applied action and every new deal: host.changed()
    ...the table's bot driver asks host.plays(seat) == "ai" (AI seats, away phones)
    ...HostEvent: joined / left / away ("AI plays for NAME") / back / acted
    ...save server.keys() with the autosave; on leaving: host.close(); server.stop()

A phone seat is never the kiosk's human: its decisions come through `Host.submit`, which
refuses (`order`) while the seat is away; on `back`, the driver must drop a bot decision in
flight for that seat before the phone's own arrives.
"""
