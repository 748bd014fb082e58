"""The one error the solver raises for input a person got wrong."""


class PuzzleError(ValueError):
    """A puzzle or reading that cannot be a valid puzzle; the message is for a person."""
