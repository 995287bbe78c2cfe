"""Loads every page of `lanes serve` in headless Chromium (Selenium + chromedriver), checks what a
reader sees, saves screenshots, and follows a live log while the lane runs.

Usage: browser_test.py BASE_URL FAILED_RUN LIVE_RUN RELEASE_FILE SCREENSHOT_DIR LOGIN_URL
Prints one line per check; exits 1 on the first failure.
"""
import os
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

base, failed_run, live_run, release_file, shots, login = sys.argv[1:7]


def check(condition, message):
    if not condition:
        print("FAILED: " + message, flush=True)
        sys.exit(1)
    print("ok: " + message, flush=True)


options = Options()
for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,900"):
    options.add_argument(argument)
options.binary_location = "/usr/bin/chromium"
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
driver.set_page_load_timeout(20)
wait = WebDriverWait(driver, 20, poll_frequency=0.1)
try:
    # Signed out, the page says how to sign in; the address lanes serve printed sets the cookie.
    driver.get(f"{base}/")
    check("sign in" in driver.page_source.lower(), "a browser without the cookie is asked to sign in")
    driver.get(login)
    check(driver.current_url.rstrip("/") == base, "the login address sets the cookie and leads to the schedules")
    # The live log first, while the lane is still running: the page shows what the log held when it
    # loaded, then the script appends lines as the server sends them.
    driver.get(f"{base}/runs/{live_run}")
    log = driver.find_element(By.ID, "log")
    check(driver.find_element(By.ID, "live-state").text == "live", "the running run's page says it is live")
    initial = log.text
    check("released" not in initial.splitlines(), "the page loaded before the lane finished")
    wait.until(lambda d: len(d.find_element(By.ID, "log").text.splitlines()) >= len(initial.splitlines()) + 3)
    check(True, "new log lines appeared without a reload")
    driver.save_screenshot(os.path.join(shots, "live-running.png"))
    open(release_file, "w").close()
    # The lane's end reaches the page once the runner has recorded it in the history: a hang detector,
    # not a speed check (it took longer than 20 s once on a loaded machine).
    WebDriverWait(driver, 90, poll_frequency=0.1).until(lambda d: d.find_element(By.ID, "live-state").text == "finished: succeeded")
    check("released" in driver.find_element(By.ID, "log").text.splitlines(), "the last line arrived and the stream ended with the run's status")
    driver.save_screenshot(os.path.join(shots, "live-finished.png"))

    driver.get(f"{base}/")
    rows = driver.find_elements(By.CSS_SELECTOR, "#schedules tbody tr")
    check(len(rows) == 3, f"schedules: three triggers ({len(rows)})")
    check(all(len(row.find_elements(By.CSS_SELECTOR, "ol.next li")) == 5 for row in rows), "schedules: five next runs each")
    check("Europe/Paris" in driver.find_element(By.ID, "schedules").text, "schedules: the zone")
    driver.save_screenshot(os.path.join(shots, "schedules.png"))

    driver.get(f"{base}/history")
    check(len(driver.find_elements(By.CSS_SELECTOR, "#runs tbody tr")) >= 5, "history: the runs")
    check(len(driver.find_elements(By.CSS_SELECTOR, "svg.trend rect")) >= 5, "history: trend bars")
    driver.save_screenshot(os.path.join(shots, "history.png"))
    Select(driver.find_element(By.NAME, "lane")).select_by_value("broken")
    driver.find_element(By.CSS_SELECTOR, "form.filter button").click()
    wait.until(lambda d: "lane=broken" in d.current_url)
    lanes = {row.find_elements(By.TAG_NAME, "td")[1].text for row in driver.find_elements(By.CSS_SELECTOR, "#runs tbody tr")}
    check(lanes == {"broken"}, f"history: the lane filter form ({lanes})")

    driver.get(f"{base}/runs/{failed_run}")
    steps = driver.find_elements(By.CSS_SELECTOR, "#steps tbody tr")
    check(len(steps) == 2 and "failed" in steps[1].text, "run: the steps table with the failing step")
    check("disk <full>" in driver.find_element(By.ID, "error").text, "run: the error, escaped markup shown as text")
    scripts = driver.find_elements(By.TAG_NAME, "script")
    check(len(scripts) == 1 and scripts[0].get_attribute("src").endswith("/static/live.js"),
          "run: a finished run's page loads only the site's own script")
    times = driver.find_elements(By.CSS_SELECTOR, "time[datetime]")
    check(times != [] and all(t.get_attribute("title") == t.get_attribute("datetime") for t in times),
          "run: times shown in the reader's zone, UTC in the tooltip")
    driver.save_screenshot(os.path.join(shots, "run-failed.png"))

    driver.get(f"{base}/signing")
    table = driver.find_element(By.ID, "signing").text
    check("Staging" in table and "Lapsed" in table and "day(s) left" in table, "signing: both configurations with countdowns")
    check("expired" in driver.find_element(By.ID, "problems").text, "signing: the expired profile is listed with its fix")
    driver.save_screenshot(os.path.join(shots, "signing.png"))
finally:
    driver.quit()
