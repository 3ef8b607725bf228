//! One chat completion: the model's own chat template, the prompt read in
//! batches, then tokens sampled (greedy with a light repetition penalty, under
//! the JSON schema's grammar when one is given) until the end of the turn.

use std::time::Instant;

use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::{LlamaChatMessage, LlamaChatTemplate, LlamaModel};
use llama_cpp_2::sampling::LlamaSampler;
use llama_cpp_2::token::LlamaToken;
use recorder_llm::protocol::{Finished, Message, Reply, Request};

/// Prompt tokens read at once.
pub const BATCH: u32 = 512;
/// A progress line every this many tokens written.
const PROGRESS_EVERY: u32 = 16;

pub struct Engine<'a> {
    pub backend: &'a LlamaBackend,
    pub model: &'a LlamaModel,
    pub params: LlamaContextParams,
}

impl Engine<'_> {
    pub fn complete(
        &self,
        request: &Request,
        say: &mut impl FnMut(&Reply),
    ) -> Result<Finished, String> {
        let prompt = self.prompt(&request.messages)?;
        let tokens = self.model.vocab().tokenize(prompt.as_bytes(), true, true);
        let room = self.params.n_ctx().map_or(0, |n| n.get());
        let wanted = tokens.len() as u32 + request.max_tokens;
        if wanted > room {
            return Err(format!(
                "the prompt is {} tokens and the answer may take {}: more than the {room} the \
                 model's context holds",
                tokens.len(),
                request.max_tokens
            ));
        }
        let mut context = self
            .model
            .new_context(self.backend, self.params.clone())
            .map_err(|error| format!("no room for the model's context: {error}"))?;
        let started = Instant::now();
        let mut batch = LlamaBatch::new(BATCH as usize, 1);
        read_prompt(&mut context, &mut batch, &tokens, say)?;
        let prompt_ms = started.elapsed().as_millis() as u64;
        let mut sampler = self.sampler(request.json_schema.as_deref())?;
        let written = Instant::now();
        let mut text = Vec::new();
        let (mut generated, mut position) = (0u32, tokens.len() as i32);
        let vocab = self.model.vocab();
        let truncated = loop {
            let token = sampler.sample(&context, batch.n_tokens() - 1);
            if vocab.is_eog(token) {
                break false;
            }
            text.extend(vocab.token_to_piece(token, false, None));
            generated += 1;
            if generated >= request.max_tokens {
                break true;
            }
            if generated % PROGRESS_EVERY == 0 {
                let prompt_tokens = tokens.len() as u32;
                say(&Reply::Progress { prompt_tokens, read: prompt_tokens, generated });
            }
            next(&mut context, &mut batch, token, position)?;
            position += 1;
        };
        Ok(Finished {
            text: String::from_utf8_lossy(&text).into_owned(),
            prompt_tokens: tokens.len() as u32,
            generated_tokens: generated,
            prompt_ms,
            generate_ms: written.elapsed().as_millis() as u64,
            truncated,
        })
    }

    /// The messages in the model's chat template (ChatML when it has none).
    fn prompt(&self, messages: &[Message]) -> Result<String, String> {
        let chat = messages
            .iter()
            .map(|m| LlamaChatMessage::new(m.role.clone(), m.content.clone()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|error| format!("a message could not be passed on: {error}"))?;
        let template = match self.model.chat_template(None) {
            Ok(template) => template,
            Err(_) => LlamaChatTemplate::new("chatml").map_err(|error| error.to_string())?,
        };
        self.model
            .apply_chat_template(&template, &chat, true)
            .map_err(|error| format!("the model's chat template failed: {error}"))
    }

    fn sampler(&self, schema: Option<&str>) -> Result<LlamaSampler, String> {
        let mut chain = Vec::new();
        if let Some(schema) = schema {
            let grammar = llama_cpp_2::json_schema_to_grammar(schema)
                .map_err(|error| format!("the JSON schema has no grammar: {error}"))?;
            let grammar = LlamaSampler::grammar(self.model, &grammar, "root")
                .map_err(|error| format!("the grammar was refused: {error}"))?;
            chain.push(grammar);
        }
        chain.push(LlamaSampler::penalties(self.model.n_vocab(), 64, 1.1, 0.0, 0.0));
        chain.push(LlamaSampler::greedy());
        Ok(LlamaSampler::chain_simple(chain))
    }
}

/// Reads the prompt in batches; only its last token's logits are kept.
fn read_prompt(
    context: &mut llama_cpp_2::context::LlamaContext<'_>,
    batch: &mut LlamaBatch,
    tokens: &[LlamaToken],
    say: &mut impl FnMut(&Reply),
) -> Result<(), String> {
    let total = tokens.len();
    for (at, chunk) in tokens.chunks(BATCH as usize).enumerate() {
        batch.clear();
        let first = at * BATCH as usize;
        for (offset, token) in chunk.iter().enumerate() {
            let position = first + offset;
            let last = position + 1 == total;
            batch.add(*token, position as i32, &[0], last).map_err(|error| error.to_string())?;
        }
        context.decode(batch).map_err(|error| format!("reading the prompt failed: {error}"))?;
        let read = (first + chunk.len()) as u32;
        say(&Reply::Progress { prompt_tokens: total as u32, read, generated: 0 });
    }
    Ok(())
}

fn next(
    context: &mut llama_cpp_2::context::LlamaContext<'_>,
    batch: &mut LlamaBatch,
    token: LlamaToken,
    position: i32,
) -> Result<(), String> {
    batch.clear();
    batch.add(token, position, &[0], true).map_err(|error| error.to_string())?;
    context.decode(batch).map_err(|error| format!("writing the answer failed: {error}"))
}
