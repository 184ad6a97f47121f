"""engine.result: lines render through a translator, with seats and sides named by the reader."""

from engine.result import DealResult, Line, SideScore


def test_a_line_names_seats_and_sides_and_translates() -> None:
    line = Line("Trick {n}: {seat} won {points} points for {team}", {"n": 3, "seat": 2,
                                                                    "points": 10, "team": 0})
    assert line.render() == "Trick 3: seat 2 won 10 points for team 0"
    french = {"Trick {n}: {seat} won {points} points for {team}":
              "Pli {n} : {seat} gagne {points} points pour {team}"}
    assert line.render(french.get, seat_name=lambda s: f"IA {s}",
                       side_name=lambda t: "votre équipe") == (
        "Pli 3 : IA 2 gagne 10 points pour votre équipe")


def test_a_line_starting_with_a_name_starts_with_a_capital() -> None:
    assert Line("{seat} won", {"seat": 1}).render() == "Seat 1 won"


def test_side_of_finds_the_side_of_a_seat() -> None:
    result = DealResult((SideScore((0, 2), 5), SideScore((1, 3), -5)), (0,))
    assert [result.side_of(s) for s in range(4)] == [0, 1, 0, 1]
