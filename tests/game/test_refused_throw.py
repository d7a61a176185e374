"""refused_throw: a throw the rules did not allow is recorded, and changes nothing."""

import pytest

from tablectl.game import CommandError, Game


def _table() -> Game:
    g = Game()
    for cmd in ({"command": "join", "player": "ann", "buy_in": 100},
                {"command": "join", "player": "bob", "buy_in": 100},
                {"command": "shooter", "player": "ann"},
                {"command": "center_bet", "amount": 10},
                {"command": "fade", "player": "bob", "amount": 10},
                {"command": "await_ruling", "rule": "R-I2", "reason": "die 1 cocked"}):
        g.apply(cmd)
    return g


def test_refused_throw_is_an_event_and_changes_no_state():
    g = _table()
    before = g.snapshot()
    events = g.apply({"command": "refused_throw", "rule": "R-I2",
                      "reason": "a ruling is pending", "dice": [3, None]})
    assert events == [{"event": "throw_refused", "shooter": "ann", "rule": "R-I2",
                       "reason": "a ruling is pending", "dice": [3, None]}]
    assert g.snapshot() == before
    assert g.state()["awaiting_ruling"] is not None
    assert g.state()["balances"] == {"ann": 90, "bob": 90}


@pytest.mark.parametrize("cmd", [
    {"command": "refused_throw", "rule": "I2", "reason": "x"},
    {"command": "refused_throw", "rule": "R-I2"},
    {"command": "refused_throw", "rule": "R-I2", "reason": "x", "dice": [7, 1]},
    {"command": "refused_throw", "rule": "R-I2", "reason": "x", "dice": [1]},
])
def test_refused_throw_malformed(cmd):
    with pytest.raises(CommandError):
        _table().apply(cmd)
