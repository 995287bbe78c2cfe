import Lanes

let lanes = Lanefile {
    Lane("sign", "Imports the certificate, then waits to be interrupted", secrets: ["CERTIFICATE_PASSWORD"]) {
        try await importCertificate(keychainName: "interrupted", certificatePath: "ios_distribution.p12",
                                    certificatePassword: secret("CERTIFICATE_PASSWORD"))
        try await sh("sh", "-c", "echo keychain ready; touch lane-started; sleep 120")
    }
    Lane("signThenFail", "Imports the certificate, then fails", secrets: ["CERTIFICATE_PASSWORD"]) {
        try await importCertificate(keychainName: "failing", certificatePath: "ios_distribution.p12",
                                    certificatePassword: secret("CERTIFICATE_PASSWORD"))
        try await sh("false")
    }
    Lane("signThenUpload", "Imports the certificate, then uploads it where LANES_UPLOAD_DESTINATION says", secrets: ["CERTIFICATE_PASSWORD"]) {
        try await importCertificate(keychainName: "uploading", certificatePath: "ios_distribution.p12",
                                    certificatePassword: secret("CERTIFICATE_PASSWORD"))
        try await upload(file: "ios_distribution.p12")
    }
}
