// Your guard. Grade it:   npx lab grade exercises/my-guard.ts
// Try it in the lab:      npx lab guard exercises/my-guard.ts
// Sua guarda. Avalie:     npm run grade -- exercises/my-guard.ts
// Teste no lab:           npx lab guard exercises/my-guard.ts
//
// It starts as the article's first idea: look the order up, and charge it only if it is not
// there yet. Every failure mode the lab knows is tried on it; read the ✗ rows, then the hints
// (exercises/hints.md), one at a time. Every name below is in docs/guard-api.md.
//
// Ela começa como a primeira ideia do artigo: procurar o pedido e cobrar só se ele ainda não
// estiver lá. Todo modo de falha que o lab conhece é testado nela; leia as linhas ✗ e depois as
// dicas (exercises/hints.pt-BR.md), uma de cada vez. Cada nome abaixo está em
// docs/guard-api.pt-BR.md.
import { CLAIM_STATUS, defineGuard } from "sqs-idempotency-lab/guard";

export default defineGuard(async ({ order, invocation, claims, log, charge }) => {
  // Has any copy of this order been here before?
  // Alguma cópia deste pedido já passou por aqui?
  const existing = await claims.read(order.orderId);
  if (existing) {
    log("skip_duplicate");
    // A duplicate: SQS deletes it, nothing is charged.
    // Uma duplicata: o SQS apaga a mensagem, nada é cobrado.
    return "skipped";
  }

  // The payment: every call charges once more.
  // O pagamento: cada chamada cobra mais uma vez.
  await charge();

  // Write it down, so the next copy finds it.
  // Anote, para a próxima cópia encontrar.
  const now = new Date().toISOString();
  await claims.put({
    orderId: order.orderId,
    status: CLAIM_STATUS.completed,
    ...invocation,
    claimedAt: now,
    completedMessageId: invocation.messageId,
    completedAt: now,
  });
  return "charged";
});
