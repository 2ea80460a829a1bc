package io.mailbox.server.browser;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Debian Chromium driving the console, with the flags this machine needs (PLATFORM.md).
 * Uses the system's chromedriver: tools that download their own browser fail here.
 */
public final class ConsoleBrowser implements AutoCloseable {
  private static final Duration WAIT = Duration.ofSeconds(30);

  private final ChromeDriver driver;
  private final Path profile;

  public ConsoleBrowser() throws Exception {
    profile = Files.createTempDirectory("chromium-profile");
    ChromeOptions options = new ChromeOptions();
    options.setBinary("/usr/bin/chromium");
    options.addArguments(
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1440,900",
        "--user-data-dir=" + profile);
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(Path.of("/usr/bin/chromedriver").toFile())
            .build();
    driver = new ChromeDriver(service, options);
  }

  public void open(String url) {
    driver.get(url);
  }

  public String title() {
    return driver.getTitle();
  }

  /** Waits until an element with this id is visible and returns it. */
  public WebElement waitFor(String id) {
    return new WebDriverWait(driver, WAIT)
        .until(ExpectedConditions.visibilityOfElementLocated(By.id(id)));
  }

  /** Types into a Vaadin text field (its {@code <input>} sits in the field's light DOM). */
  public void type(String fieldId, String text) {
    WebElement input = waitFor(fieldId).findElement(By.tagName("input"));
    input.clear();
    input.sendKeys(text);
  }

  public void click(String id) {
    waitFor(id).click();
  }

  public org.openqa.selenium.WebDriver driver() {
    return driver;
  }

  /** Whether an element with this id exists on the page now (a hidden control does not). */
  public boolean has(String id) {
    return !driver.findElements(By.id(id)).isEmpty();
  }

  public void signIn(String username, String password) {
    type("username", username);
    type("password", password);
    click("sign-in");
  }

  /** The texts of every rendered grid cell. */
  public List<String> gridCells() {
    return driver.findElements(By.tagName("vaadin-grid-cell-content")).stream()
        .map(WebElement::getText)
        .toList();
  }

  /** Waits until some grid cell shows exactly {@code text}. */
  public void waitForGridCell(String text) {
    new WebDriverWait(driver, WAIT).until(d -> gridCells().contains(text));
  }

  /** Clicks the grid cell showing exactly {@code text} (selects its row). */
  public void clickGridCell(String text) {
    waitForGridCell(text);
    driver.findElements(By.tagName("vaadin-grid-cell-content")).stream()
        .filter(cell -> cell.getText().equals(text))
        .findFirst()
        .orElseThrow()
        .click();
  }

  public void screenshot(Path target) throws Exception {
    Files.createDirectories(target.getParent());
    Files.write(target, driver.getScreenshotAs(OutputType.BYTES));
  }

  @Override
  public void close() throws java.io.IOException {
    driver.quit();
    try (var files = Files.walk(profile)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
