import pytest

from app.validators import check_label


def test_rejects_home_shorthand():
    with pytest.raises(ValueError):
        check_label("~x")
