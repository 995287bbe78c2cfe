/// Reads the subject common name of a DER X.509 certificate: enough to learn which identity
/// ("iPhone Distribution: ...") a profile's certificate has, without a crypto library.
enum CertificateSubject {
    private static let commonNameOID: [UInt8] = [0x55, 0x04, 0x03]

    static func commonName(ofDER der: [UInt8]) -> String? {
        // Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version?, serial, signature, issuer, validity, subject, ... } }
        guard let certificate = element(in: der, at: 0), certificate.tag == 0x30,
              let tbs = element(in: der, at: certificate.contentStart), tbs.tag == 0x30 else { return nil }
        var fields: [Element] = []
        var offset = tbs.contentStart
        while offset < tbs.end, fields.count < 6, let field = element(in: der, at: offset) {
            fields.append(field)
            offset = field.end
        }
        let skip = fields.first?.tag == 0xA0 ? 1 : 0
        guard fields.count >= skip + 5 else { return nil }
        let subject = fields[skip + 4]
        return commonName(inName: der, subject)
    }

    /// Name ::= SEQUENCE OF SET OF SEQUENCE { type OID, value string }
    private static func commonName(inName der: [UInt8], _ name: Element) -> String? {
        var offset = name.contentStart
        while offset < name.end, let set = element(in: der, at: offset) {
            var inner = set.contentStart
            while inner < set.end, let pair = element(in: der, at: inner) {
                if let type = element(in: der, at: pair.contentStart), type.tag == 0x06,
                   Array(der[type.contentStart..<type.end]) == commonNameOID,
                   let value = element(in: der, at: type.end), value.end <= pair.end {
                    return String(decoding: der[value.contentStart..<value.end], as: UTF8.self)
                }
                inner = pair.end
            }
            offset = set.end
        }
        return nil
    }

    private struct Element {
        let tag: UInt8
        let contentStart: Int
        let end: Int
    }

    private static func element(in der: [UInt8], at offset: Int) -> Element? {
        guard offset + 2 <= der.count else { return nil }
        let tag = der[offset]
        var length = Int(der[offset + 1])
        var contentStart = offset + 2
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard count > 0, count <= 4, contentStart + count <= der.count else { return nil }
            length = der[contentStart..<(contentStart + count)].reduce(0) { $0 << 8 | Int($1) }
            contentStart += count
        }
        guard contentStart + length <= der.count else { return nil }
        return Element(tag: tag, contentStart: contentStart, end: contentStart + length)
    }
}
