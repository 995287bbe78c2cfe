# Homebrew formula: lanes' release archive (`make dist`), or built from source with --HEAD.
# HEAD is the repository this file belongs to, so tapping a clone builds that clone:
#   brew tap lanes/lanes /path/to/your/clone && brew install --HEAD lanes/lanes/lanes
# `brew tap` copies the clone into Homebrew's taps; after new commits, `brew update` refreshes that copy
# and `brew upgrade --fetch-HEAD lanes` rebuilds.
class Lanes < Formula
  desc "Continuous delivery for app teams, in typed Swift"
  # The public repository's address; replace it when the project is published.
  homepage "https://github.com/lanes/lanes"
  # The checkout holding Formula/: the tap Homebrew made from your clone (or the clone itself).
  head "file://#{File.expand_path("..", __dir__)}", using: :git
  # The release archive `make dist` packs on macOS: lanes prebuilt, unpacked as is. No release is
  # published yet; Tools/release-formula.sh ARCHIVE fills these two lines in when one is.
  # url "https://github.com/lanes/lanes/releases/download/v0.1.0/lanes-0.1.0-macos-arm64.tar.gz"
  # sha256 "SHA256 of the archive"

  depends_on "pkgconf" => :build
  depends_on xcode: ["26.0", :build] # Swift 6.2 (swift-tools-version in Package.swift)
  depends_on "libgit2"
  depends_on "openssl@3"
  depends_on "sqlite"
  depends_on :macos

  uses_from_macos "zlib"

  def install
    unless build.head?
      prefix.install "bin", "lib" # the release archive is the installed layout
      # What install-files records for a build: Xcode's real swiftc with its version, and the SDK.
      swiftc = Utils.safe_popen_read("xcrun", "--find", "swiftc").chomp
      version = Utils.safe_popen_read(swiftc, "--version").lines.find { |line| line.include?("Swift version") }
      (lib/"lanes/swiftc").write("#{swiftc}\n#{version}")
      (lib/"lanes/sdk").write(Utils.safe_popen_read("xcrun", "--show-sdk-path"))
      return
    end
    system "swift", "build", "--disable-sandbox", "-c", "release"
    # install-files copies the build and records Xcode's real swiftc and SDK (xcrun), which the compile
    # cache keys on; `make install` would also run `brew install` for the libraries.
    system "make", "install-files", "PREFIX=#{prefix}", "BIN=#{buildpath}/.build/release"
  end

  test do
    assert_match(/^lanes \d+\.\d+/, shell_output("#{bin}/lanes --version"))
    (testpath/"Lanefile.swift").write <<~SWIFT
      import Lanes

      let lanes = Lanefile {
          Lane("hello", "Says hello") { print("hello from lanes") }
      }
    SWIFT
    assert_match "hello from lanes", shell_output("#{bin}/lanes hello")
  end
end
