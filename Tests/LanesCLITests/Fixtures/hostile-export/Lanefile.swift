import Lanes

// Valid lane names (the Lanefile refuses others), but free text where exports take free text.
let lanes = Lanefile {
    Lane("nightly", "A seed written to break out of every format", secrets: ["TOKEN"]) {}
        .schedule("H 1 * * *")
        .hashSeed("x\n  run: touch pwned-run\n%h $(touch pwned-subst)\r\u{2028}injected: true\u{85}also: true")
    Lane("build_ios", "Snake case") {}.schedule("0 2 * * *")
    Lane("buildIos", "Camel case, the same words") {}.schedule("0 3 * * *")
    Lane("aVeryLongLaneNameThatGoesOnAndOnPastFortyCharactersA", "Long") {}.schedule("0 4 * * *")
    Lane("aVeryLongLaneNameThatGoesOnAndOnPastFortyCharactersB", "Long too") {}.schedule("0 5 * * *")
}
