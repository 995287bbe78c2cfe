import Lanes

let lanes = Lanefile {
    Lane("nightly", "Pasted from a web page") {}
        .schedule("H 0 * * 0\u{2013}4")
}
