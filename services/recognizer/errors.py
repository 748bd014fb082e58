"""The one error the recognizer raises: its message tells the person what to do."""


class RecognitionError(ValueError):
    """The picture could not be read; str(error) is advice fit to show the user."""
