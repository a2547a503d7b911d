"""core.prepared: a one-row query compiled once per thread gives what the ORM gives, for any key."""

import threading

import pytest
from django.db import transaction
from django.db.transaction import TransactionManagementError
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.authentication import PlayerTokenAuthentication
from accounts.models_tokens import key_digest
from core import prepared as prepared_module
from core.locking import locked
from core.prepared import Prepared
from matches.models import Match
from tests.factories import MatchFactory, PlayerFactory, UserFactory, api_token

pytestmark = pytest.mark.django_db


def test_a_token_read_by_the_prepared_query_is_the_one_the_orm_reads_with_its_user_and_player():
    player = PlayerFactory()
    token = Token.objects.create(user=player.user)
    query = Prepared(Token.objects.select_related("user__player"), field="key", kind=str)
    found = query.one(token.key)
    expected = Token.objects.select_related("user__player").get(key=token.key)
    assert found == expected and found.user == expected.user and found.user.player == player
    assert found.created == expected.created and found.user.username == expected.user.username
    assert found._state.fields_cache.keys() == expected._state.fields_cache.keys()


def test_a_user_without_a_player_reads_as_the_orm_reads_him():
    token = Token.objects.create(user=UserFactory())
    found = Prepared(Token.objects.select_related("user__player"), field="key", kind=str).one(token.key)
    assert not hasattr(found.user, "player")  # the reverse one-to-one: no player, as the ORM says


def test_an_unknown_key_is_does_not_exist():
    with pytest.raises(Token.DoesNotExist):
        Prepared(Token.objects.all(), field="key", kind=str).one("no-such-key")


def test_token_authentication_is_one_query_compiled_once_per_thread(django_assert_num_queries, monkeypatch):
    monkeypatch.setattr(prepared_module, "_kept", threading.local())  # this test's own thread store
    made = []
    original = Prepared.__init__

    def counting(self, *args, **kwargs):
        made.append(args)
        original(self, *args, **kwargs)

    monkeypatch.setattr(Prepared, "__init__", counting)
    players = [PlayerFactory() for _ in range(3)]
    keys = [api_token(player.user) for player in players]
    authentication = PlayerTokenAuthentication()
    for player, key in zip(players, keys, strict=True):
        with django_assert_num_queries(1):  # the token, its user and his player
            user, found = authentication.authenticate_credentials(key)
        assert user == player.user and user.player == player and found.key_digest == key_digest(key)
    assert len(made) == 1, "the token's query is compiled once per thread, not per request"


def test_a_bad_token_is_refused_with_401():
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    answer = client.post("/api/v1/matches/1/report/", {"score": [5, 3]}, format="json")
    assert answer.status_code == 401


@pytest.mark.django_db(transaction=True)
def test_a_locking_prepared_query_is_refused_outside_a_transaction_and_locks_inside():
    match = MatchFactory()
    with transaction.atomic():  # the ORM compiles a locking query only inside one
        query = Prepared(locked(Match.objects.all()))
        assert query.one(match.pk) == match
        assert "FOR UPDATE" in query.sql
    with pytest.raises(TransactionManagementError):
        query.one(match.pk)


# --- prepared statements of the database session ---------------------------------------------------


def _session_statements() -> set[str]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM pg_prepared_statements")
        return {row[0] for row in cursor.fetchall()}


def _run(name: str, sql: str, params: list):
    from django.db import connection

    with connection.cursor() as cursor:
        prepared_module.statement_execute(cursor, name, sql, params)
        return cursor.fetchall()


def test_a_query_is_prepared_once_per_session_then_only_executed():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    name = prepared_module.statement_name("test.twice", "SELECT %s::int + 1, '100%%'")
    with CaptureQueriesContext(connection) as sent:
        assert _run(name, "SELECT %s::int + 1, '100%%'", [41]) == [(42, "100%")]
        assert _run(name, "SELECT %s::int + 1, '100%%'", [1]) == [(2, "100%")]
    assert sent[0]["sql"].startswith(f"PREPARE {name} AS SELECT $1::int + 1, '100%'; EXECUTE {name}(41)")
    assert sent[1]["sql"] == f"EXECUTE {name}(1)"
    assert name in _session_statements()


def test_a_first_run_that_fails_leaves_the_session_able_to_run_it_again():
    sql = "SELECT 10 / %s::int"
    name = prepared_module.statement_name("test.fails", sql)
    with pytest.raises(Exception, match="division by zero"), transaction.atomic():
        _run(name, sql, [0])
    # PREPARE outlived the failed transaction: the statement is found and executed, not prepared twice.
    assert name in _session_statements()
    assert _run(name, sql, [5]) == [(2,)]
    other = prepared_module.statement_name("test.bad", "SELECT nonsense FROM nowhere WHERE 1 = %s")
    with pytest.raises(Exception, match="nowhere"), transaction.atomic():
        _run(other, "SELECT nonsense FROM nowhere WHERE 1 = %s", [1])
    assert other not in _session_statements()
    with pytest.raises(Exception, match="nowhere"), transaction.atomic():
        _run(other, "SELECT nonsense FROM nowhere WHERE 1 = %s", [1])  # prepared again, not "does not exist"


def test_two_texts_under_one_name_are_two_statements():
    assert prepared_module.statement_name("a.b", "SELECT 1") != prepared_module.statement_name("a.b", "SELECT 2")
    assert prepared_module.statement_name("a.b", "SELECT 1").startswith("crawford_a_b_")


def test_a_key_past_64_bits_finds_nothing_instead_of_failing():
    client = APIClient()
    assert client.get("/api/v1/matches/22012249724277967814656/").status_code == 404
    assert client.get(f"/api/v1/matches/{2**63 - 1}/").status_code == 404
    query = Prepared(Match.objects.all())
    with pytest.raises(Match.DoesNotExist):
        query.one(2**70)


def _run_together(statements):
    from django.db import connection

    with connection.cursor() as cursor:
        return prepared_module.statements_execute(cursor, statements)


def test_statements_sent_together_are_one_round_trip_each_prepared_once():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    first_sql, second_sql = "SELECT %s::int * 2", "SELECT %s::text || '%%', %s::int"
    first = prepared_module.statement_name("test.together.a", first_sql)
    second = prepared_module.statement_name("test.together.b", second_sql)
    with CaptureQueriesContext(connection) as sent:
        assert _run_together([(first, first_sql, [4]), (second, second_sql, ["x", 1])]) == [[(8,)], [("x%", 1)]]
        assert _run_together([(first, first_sql, [5]), (second, second_sql, ["y", 2])]) == [[(10,)], [("y%", 2)]]
    assert len(sent) == 2
    assert sent[0]["sql"].startswith(f"PREPARE {first} AS SELECT $1::int * 2; EXECUTE {first}(4); PREPARE {second} AS")
    assert sent[1]["sql"] == f"EXECUTE {first}(5); EXECUTE {second}('y', 2)"
    assert {first, second} <= _session_statements()


def test_statements_sent_together_run_in_order_and_an_empty_answer_is_kept_in_its_place():
    match = MatchFactory()
    lock = Prepared(locked(Match.objects.all()), name="test.together.lock")
    set_sql, read_sql = "SELECT set_config('crawford.seen', %s::text, true)", "SELECT current_setting('crawford.seen') || %s"
    setting = (prepared_module.statement_name("test.together.set", set_sql), set_sql)
    reading = (prepared_module.statement_name("test.together.read", read_sql), read_sql, ["!"])
    with transaction.atomic():
        missing, _set, _read = _run_together([lock.statement(match.pk + 10_000), (*setting, ["first"]), reading])
        _set, read, found = _run_together([(*setting, ["second"]), reading, lock.statement(match.pk)])
    assert missing == [] and lock.instance(found) == match
    assert _read == [("first!",)] and read == [("second!",)]  # each statement sees the ones before it
    with pytest.raises(Match.DoesNotExist):
        lock.instance(missing)


def test_statements_with_a_key_past_64_bits_run_one_by_one_and_find_nothing():
    lock = Prepared(Match.objects.all(), name="test.together.big")
    assert _run_together([lock.statement(2**70), lock.statement(2**70 + 1)]) == [[], []]


def test_a_failed_round_trip_of_statements_leaves_the_session_able_to_run_them_again():
    sql = "SELECT 10 / %s::int"
    name = prepared_module.statement_name("test.together.fails", sql)
    other_sql = "SELECT %s::int"
    other = prepared_module.statement_name("test.together.other", other_sql)
    with pytest.raises(Exception, match="division by zero"), transaction.atomic():
        _run_together([(other, other_sql, [1]), (name, sql, [0])])
    assert {name, other} <= _session_statements()
    assert _run_together([(other, other_sql, [3]), (name, sql, [5])]) == [[(3,)], [(2,)]]
