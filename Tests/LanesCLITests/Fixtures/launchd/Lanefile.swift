import Lanes

let lanes = Lanefile {
    Lane("nightly", "Weekday mornings") {}.schedule("H 9 * * 1-5")
    Lane("often", "Every four hours, and twice on the first") {}.schedule("15 */4 * * *\nH H(12-13) 1 * *")
    Lane("both", "Restricts the day and the weekday") {}.schedule("0 9 1-7 * 1")
    Lane("taipei", "In the office's zone") {}.schedule("H 0 * * 0-4").timeZone("Asia/Taipei")
}
