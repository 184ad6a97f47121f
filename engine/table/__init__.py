"""The table core: one match (or one bare deal) played seat by seat, without a screen.

`Table` owns the position (a `Session`, or a bare `State` for the arena and training) and one
`Seat` per place at the table, and runs the one loop every caller shares: whose turn it is, ask
that seat, check the answer through the engine and apply it, then tell its listeners (plain
`events`: turn, applied, deal over). A seat is one of four kinds (`seats`): a person at this
screen (`LocalSeat`), a phone (`RemoteSeat`: its phone, or a stand-in AI while the phone is
away), a bot (`BotSeat`) or a script (`ScriptedSeat`: a record being shown, a lesson's AI
seats). A seat answers at once, or later through `Table.answer` / `Table.play` (a bot thinking
on another thread, a person deciding). The Kivy table is a view and the local seats' input on
top of it; the phone server a transport for the remote seats; the arena, training, the coach's
timing and the headless phone table drive it with bot seats.

No Kivy, no threads, no clock here: who calls `step` decides the pace.
"""

from engine.session import RecordPosition
from engine.table.events import Applied, DealOver, Event, Turn
from engine.table.seats import (
    BOT,
    LOCAL,
    REMOTE,
    SCRIPTED,
    Answer,
    BotSeat,
    LocalSeat,
    RemoteSeat,
    Request,
    Script,
    ScriptedSeat,
    Seat,
)
from engine.table.table import DealPosition, Position, Table, Waiting

__all__ = [
    "BOT", "LOCAL", "REMOTE", "SCRIPTED", "Answer", "Applied", "BotSeat", "DealOver",
    "DealPosition", "Event", "LocalSeat", "Position", "RecordPosition", "RemoteSeat", "Request", "Script",
    "ScriptedSeat", "Seat", "Table", "Turn", "Waiting",
]
