"""The player directory: the search key kept by every write of a name, the search (accents, case,
Romanian comma or cedilla, Korean and Arabic in their own script), the filters by country and club,
the API (paginated, no email, constant queries a page) and the page /players/."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import Club, HomeClub, Membership
from core.text import search_key
from matches.models import Player
from matches.selectors.directory import player_directory, player_resolve
from matches.services.matches import player_create
from tests.factories import PlayerFactory, UserFactory
from tests.matches.factories_api import client_for

pytestmark = pytest.mark.django_db

API = "/api/v1/players/"
PAGE = "/players/"


def names(players) -> list[str]:
    return [p.display_name for p in players]


def api_names(response) -> list[str]:
    return [p["display_name"] for p in response.data["results"]]


# --- the search key --------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "key"), [
    ("Ștefan Popescu", "stefan popescu"),   # s with comma below (U+0219)
    ("Ştefan Popescu", "stefan popescu"),   # s with cedilla (U+015F), the older Romanian spelling
    ("STEFAN  POPESCU", "stefan popescu"),
    ("Țuțea", "tutea"),
    ("Ţuţea", "tutea"),
    ("Łukasz Żółć", "lukasz zolc"),
    ("Søren Straße", "soren strasse"),
    ("محمَّد", "محمد"),                       # the vowel signs go, the letters stay
])
def test_the_search_key_sets_aside_accents_case_and_the_romanian_comma_or_cedilla(name, key):
    assert search_key(name) == key


def test_every_write_of_a_name_writes_its_search_key():
    created = player_create(display_name="Ștefan Popescu")
    assert created.search_name == "stefan popescu"
    assert Player.objects.get(pk=created.pk).search_name == "stefan popescu"

    created.display_name = "Ana Țăran"
    created.save(update_fields=["display_name"])
    assert Player.objects.get(pk=created.pk).search_name == "ana taran"

    Player.objects.filter(pk=created.pk).update(display_name="Éva Kovács")
    assert Player.objects.get(pk=created.pk).search_name == "eva kovacs"

    bulk = Player.objects.bulk_create([Player(display_name="Zoë"), Player(display_name="Ünal")])
    assert sorted(Player.objects.filter(pk__in=[p.pk for p in bulk]).values_list("search_name", flat=True)) == [
        "unal", "zoe"]
    bulk[0].display_name = "Chloë"
    Player.objects.bulk_update(bulk, ["display_name"])
    assert Player.objects.get(pk=bulk[0].pk).search_name == "chloe"

    factory_made = PlayerFactory(user=None, display_name="Jörg")
    assert Player.objects.get(pk=factory_made.pk).search_name == "jorg"


def test_an_update_of_the_name_by_an_expression_is_refused_rather_than_leave_the_key_behind():
    from django.db.models.functions import Upper

    player_create(display_name="Ana")
    with pytest.raises(TypeError, match="search key"):
        Player.objects.update(display_name=Upper("display_name"))


# --- the search --------------------------------------------------------------------------------------


def test_stefan_is_found_whichever_way_his_name_is_written_or_typed():
    comma = player_create(display_name="Ștefan Popescu")
    cedilla = player_create(display_name="Ştefan Ionescu")
    plain = player_create(display_name="Stefan Muller")
    player_create(display_name="Stella Pop")
    for typed in ("Ștefan", "Ştefan", "Stefan", "stefan", "STEFAN", "ștef"):
        assert set(player_directory(q=typed)) == {comma, cedilla, plain}, typed
    assert list(player_directory(q="pop ștefan")) == [comma]  # every word, in any order


def test_korean_and_arabic_names_are_found_by_their_own_script():
    kim = player_create(display_name="김민준", country="KR")
    park = player_create(display_name="박서연", country="KR")
    mohammed = player_create(display_name="مُحَمَّد علي", country="EG")
    player_create(display_name="Min-jun Lee")
    assert list(player_directory(q="민준")) == [kim]
    assert list(player_directory(q="김")) == [kim]
    assert list(player_directory(q="서연")) == [park]
    assert list(player_directory(q="محمد")) == [mohammed]  # typed without the vowel signs
    assert list(player_directory(q="علي")) == [mohammed]


def test_names_starting_with_the_first_word_come_first():
    player_create(display_name="Anna Bell")
    player_create(display_name="Bella Anna")
    player_create(display_name="Belinda Zed")
    assert names(player_directory(q="bel")) == ["Belinda Zed", "Bella Anna", "Anna Bell"]


def test_the_directory_filters_by_country_and_club():
    club = Club.objects.create(name="Bucharest BG", slug="bucharest")
    other = Club.objects.create(name="Iasi BG", slug="iasi")
    member = PlayerFactory(display_name="Ștefan Popescu", country="RO")
    Membership.objects.create(club=club, user=member.user, status=Membership.Status.ACTIVE)
    Membership.objects.create(club=other, user=member.user, status=Membership.Status.ACTIVE)
    invited = PlayerFactory(display_name="Ion Invited", country="RO")
    Membership.objects.create(club=club, user=invited.user, status=Membership.Status.INVITED)
    guest = player_create(display_name="Guest Gheorghe", country="MD")
    HomeClub.objects.create(player=guest, club=club)
    player_create(display_name="Outsider", country="RO")

    assert names(player_directory(contexts={"club": club})) == ["Guest Gheorghe", "Ștefan Popescu"]
    assert names(player_directory(country="ro", contexts={"club": club})) == ["Ștefan Popescu"]
    assert names(player_directory(country="RO")) == ["Ion Invited", "Outsider", "Ștefan Popescu"]
    assert names(player_directory(q="stefan", contexts={"club": other})) == ["Ștefan Popescu"]


# --- the API --------------------------------------------------------------------------------------------


def test_the_api_searches_and_filters_and_answers_no_email():
    club = Club.objects.create(name="Bucharest BG", slug="bucharest")
    stefan = PlayerFactory(display_name="Ștefan Popescu", country="RO", user__email="stefan@example.org")
    Membership.objects.create(club=club, user=stefan.user, status=Membership.Status.ACTIVE)
    PlayerFactory(display_name="Stefan Other", country="DE")
    response = client_for().get(API, {"q": "stefan", "country": "ro", "club": club.pk})
    assert response.status_code == 200
    assert api_names(response) == ["Ștefan Popescu"] and response.data["count"] == 1
    assert "stefan@example.org" not in response.content.decode() and "email" not in response.content.decode()
    assert api_names(client_for().get(API, {"q": "ȘTEFAN"})) == ["Stefan Other", "Ștefan Popescu"]


@pytest.mark.parametrize(("query", "field"), [
    ({"country": "Romania"}, "country"),
    ({"club": "999999"}, "club"),
    ({"club": "bucharest"}, "club"),
    ({"q": "x" * 121}, "q"),
    ({"nickname": "x"}, "nickname"),
])
def test_a_bad_filter_is_a_400_naming_it(query, field):
    response = client_for().get(API, query)
    assert response.status_code == 400
    assert field in response.data["errors"], response.data


def test_the_api_pages_the_search_with_the_same_number_of_queries_whatever_the_page_holds():
    club = Club.objects.create(name="Bucharest BG", slug="bucharest")
    for number in range(30):
        player = PlayerFactory(display_name=f"Ștefan {number:02}")
        HomeClub.objects.create(player=player, club=club)
    client = client_for()

    def counted(size: int) -> int:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(API, {"q": "stefan", "club": club.pk, "page_size": size})
        assert response.status_code == 200 and len(response.data["results"]) == size
        assert response.data["results"][0]["club"] == {"id": club.pk, "name": "Bucharest BG"}
        return len(queries)

    assert counted(2) == counted(25) <= 3  # the club checked, the count, the page (home clubs joined)
    second = client.get(API, {"q": "stefan", "page": 2})
    assert second.data["count"] == 30 and api_names(second) == [f"Ștefan {n:02}" for n in range(25, 30)]


# --- the page ---------------------------------------------------------------------------------------------


def test_the_page_lists_players_with_links_to_their_pages(client):
    stefan = player_create(display_name="Ștefan Popescu", country="RO")
    player_create(display_name="Ana Pop", country="MD")
    response = client.get(PAGE, {"q": "stefan"})
    assert response.status_code == 200
    body = response.content.decode()
    assert f'href="/players/{stefan.pk}/"' in body and "Ștefan Popescu" in body and "Ana Pop" not in body
    assert "1 player" in body


def test_the_page_pages_and_keeps_the_filters_in_its_links(client):
    club = Club.objects.create(name="Bucharest BG", slug="bucharest")
    for number in range(60):
        player = player_create(display_name=f"Player {number:02}", country="RO")
        HomeClub.objects.create(player=player, club=club)

    def counted(query: dict) -> tuple[int, str]:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(PAGE, query)
        assert response.status_code == 200
        return len(queries), response.content.decode()

    full, body = counted({"country": "RO", "club": club.pk})  # 50 rows
    assert "Player 49" in body and "Player 50" not in body and "Bucharest BG" in body
    assert f"?country=RO&amp;club={club.pk}&amp;page=2" in body
    short, second = counted({"country": "RO", "club": club.pk, "page": 2})  # 10 rows
    assert "Player 50" in second and "Player 49" not in second
    assert full == short <= 4  # the club checked, the count, the page (home clubs joined), the clubs' list
    few, _ = counted({"q": "player 0"})
    assert few == full - 1  # without the club filter: no club to check


def test_a_bad_filter_on_the_page_is_said_on_its_field(client):
    response = client.get(PAGE, {"country": "Romania"})
    assert response.status_code == 400
    assert "A country is two letters" in response.content.decode()


def test_a_typed_name_resolves_to_one_player_or_says_whom_it_could_be():
    ana = player_create(display_name="Ana Pop")
    player_create(display_name="Ana Popescu")
    players = Player.objects.all()
    assert player_resolve(players, "ana pop").player == ana  # the whole name of one player
    several = player_resolve(players, "ana")
    assert several.player is None and several.count == 2 and names(several.candidates) == ["Ana Pop", "Ana Popescu"]
    assert player_resolve(players, "popesc").player.display_name == "Ana Popescu"  # the only one it fits
    assert player_resolve(players, "zed") == player_resolve(players, "zed") and player_resolve(players, "zed").count == 0


def test_the_user_table_is_never_read_for_the_directory():
    UserFactory(username="someone")
    PlayerFactory(display_name="Has A User")
    with CaptureQueriesContext(connection) as queries:
        list(player_directory(q="has"))
    assert not any("accounts_user" in query["sql"] for query in queries)


def test_the_admin_finds_players_as_the_directory_does(admin_client):
    player_create(display_name="Ștefan Popescu")
    player_create(display_name="Ana Pop")
    body = admin_client.get("/admin/matches/player/", {"q": "stefan"}).content.decode()
    assert "Ștefan Popescu" in body and "Ana Pop" not in body
