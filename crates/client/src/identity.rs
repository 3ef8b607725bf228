//! Before a token leaves this client, the listener proves it is the service that
//! holds that token (`GET /.well-known/recorder-identity`): a fresh nonce and the
//! token's key id go out, an HMAC under the token comes back and is checked here.
//! While the service is down another program can hold its port; it gets no token.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use rand::RngCore;
use recorder_api_types::identity::{
    key_id, proof, token_digest, IdentityProof, IDENTITY_PATH, SERVICE_NAME,
};
use subtle::ConstantTimeEq;

use crate::{Client, ClientError, ClientResult};

impl Client {
    /// Checks that the listener at the base URL is the service that holds this
    /// client's token. Sends no token. Run before every request that carries one.
    pub async fn verify_service(&self) -> ClientResult<()> {
        let digest = token_digest(&self.token);
        let nonce = fresh_nonce();
        let mut url = self.base.clone();
        url.set_path(IDENTITY_PATH);
        url.query_pairs_mut().append_pair("nonce", &nonce).append_pair("key", &key_id(&digest));
        let response = self
            .http
            .get(url)
            .send()
            .await
            .map_err(|_| ClientError::Unreachable(self.base.to_string()))?;
        let status = response.status().as_u16();
        if status == 401 {
            return Err(ClientError::Api {
                status,
                code: "unauthorized".into(),
                message: "the service does not know this token".into(),
            });
        }
        let answer = if status == 200 { response.json::<IdentityProof>().await.ok() } else { None };
        let expected = proof(&digest, self.port(), &nonce);
        match answer {
            Some(answer)
                if answer.service == SERVICE_NAME
                    && bool::from(answer.proof.as_bytes().ct_eq(expected.as_bytes())) =>
            {
                Ok(())
            }
            _ => Err(ClientError::Impostor(self.port())),
        }
    }

    fn port(&self) -> u16 {
        self.base.port_or_known_default().unwrap_or(80)
    }
}

fn fresh_nonce() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}
