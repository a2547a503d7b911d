"""An upload over the size limit is refused saying its real size and the limit in the reader's units
("match.mat is 6.0 MB; the limit is 2.0 MB"), never a read cut at the limit plus one byte
("is 2097153 bytes"); when the real size is not known (an archive's member read only up to the
limit) it says only that the file is larger than the limit. Through the report page's form and the
API, with a real 6 MB upload."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.template.defaultfilters import filesizeformat
from django.urls import reverse
from django.utils import translation

from core.errors import DomainError
from matches.errors import upload_too_large
from matches.services.imports.upload import _unzip
from tests.matches.factories_api import client_for, make_cast
from tests.matches.test_api_reports import assert_nothing_saved

pytestmark = pytest.mark.django_db

#: The file the organiser tried: 6,296,126 bytes.
SIZE = 6_296_126


@pytest.fixture
def cast():
    return make_cast(length=3)


def six_megabytes(name: str = "saturday.mat") -> SimpleUploadedFile:
    line = b"  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
    data = (line * (SIZE // len(line) + 1))[:SIZE]
    assert len(data) == SIZE
    return SimpleUploadedFile(name, data, content_type="text/plain")


def test_the_report_page_says_the_real_size_of_a_six_megabyte_file(client, cast, settings):
    client.force_login(cast.alice)
    response = client.post(reverse("matches:report", args=[cast.match.pk]), {
        "report-score0": "3", "report-score1": "0", "report-mat_file": six_megabytes(),
    }, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    page = response.content.decode()
    said = f"saturday.mat is {filesizeformat(SIZE)}; the limit is {filesizeformat(settings.MAX_UPLOAD_BYTES)}"
    assert said == "saturday.mat is 6.0\xa0MB; the limit is 2.0\xa0MB"
    assert said in page.replace("&nbsp;", "\xa0")
    assert str(settings.MAX_UPLOAD_BYTES + 1) not in page and "bytes" not in said
    assert_nothing_saved(cast.match)


def test_the_api_says_the_real_size_of_a_six_megabyte_file(cast, settings):
    response = client_for(cast.alice).post(f"/api/v1/matches/{cast.match.pk}/report/",
                                           {"score0": 3, "score1": 0, "file": six_megabytes()}, format="multipart",
                                           HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert (response.data["code"], response.data["file"]) == ("upload_too_large", "saturday.mat")
    assert response.data["detail"] == "saturday.mat is 6.0\xa0MB; the limit is 2.0\xa0MB"
    assert_nothing_saved(cast.match)


def test_the_size_is_said_in_the_readers_language(cast):
    client = client_for(cast.alice)
    response = client.post(f"/api/v1/matches/{cast.match.pk}/report/",
                           {"score0": 3, "score1": 0, "file": six_megabytes()}, format="multipart",
                           HTTP_ACCEPT_LANGUAGE="ro")
    with translation.override("ro"):
        size, limit = filesizeformat(SIZE), filesizeformat(2 * 1024 * 1024)
    assert size.startswith("6,0\xa0")  # the Romanian decimal comma, the unit as Django says it in Romanian
    assert size in response.data["detail"] and limit in response.data["detail"]


def test_a_size_not_known_or_that_reads_as_the_limit_is_said_to_be_larger_than_the_limit():
    with translation.override("en"):
        assert upload_too_large("a.mat", None, 2 * 1024 * 1024).message == "a.mat is larger than the limit of 2.0\xa0MB"
        assert upload_too_large("a.mat", 2 * 1024 * 1024 + 1, 2 * 1024 * 1024).message == (
            "a.mat is larger than the limit of 2.0\xa0MB")
        assert upload_too_large("a.mat", 1536, 1000).message == "a.mat is 1.5\xa0KB; the limit is 1000\xa0bytes"


def test_an_archives_member_over_the_limit_is_said_in_the_readers_units(settings):
    settings.MAX_UPLOAD_BYTES = 1000
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("big.mat", b";" * 50_000)  # declared honestly here, but read, not trusted
    with translation.override("en"), pytest.raises(DomainError) as refused:
        _unzip("night.zip", buffer.getvalue())
    assert refused.value.code == "upload_too_large"
    assert refused.value.message == "night.zip/big.mat is 48.8\xa0KB; the limit is 1000\xa0bytes"
