"""Decomposable attention (Parikh et al., 2016) with ESIM's comparison, over frozen GloVe vectors.

One sequence holds both texts, as the server feeds it: premise tokens (type 0), [SEP], claim tokens (type 1). Each
token carries its word vector, fixed features of its id (figure, negation, quantifier, no vector) and whether the same
id occurs in the other text. Every claim token is aligned softly with the premise and compared with what it aligned
to; the comparisons are pooled (mean and max) on each side and classified as entailment, neutral or contradiction.
"""

import torch
from torch import nn


class DecomposableAttention(nn.Module):
    def __init__(self, vectors, features, unk_id, sep_id, hidden, dropout):
        super().__init__()
        # Frozen, so the model reads words it never saw in training as GloVe places them; kept in half precision,
        # which halves the file and changes no prediction that matters (GloVe's values have 5 significant digits).
        self.register_buffer("vectors", vectors.half())
        self.register_buffer("features", features)
        self.unk_id = unk_id
        self.sep_id = sep_id
        width = vectors.shape[1] + features.shape[1] + 1
        self.project = nn.Sequential(nn.Linear(width, hidden), nn.ReLU())
        self.attend = nn.Sequential(nn.Dropout(dropout), nn.Linear(hidden, hidden), nn.ReLU())
        self.compare = nn.Sequential(nn.Dropout(dropout), nn.Linear(4 * hidden, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.classify = nn.Sequential(nn.Dropout(dropout), nn.Linear(4 * hidden, hidden), nn.ReLU(), nn.Linear(hidden, 3))

    def forward(self, input_ids, attention_mask, token_type_ids):
        mask = attention_mask.float()
        is_sep = (input_ids == self.sep_id).float()
        claim = mask * token_type_ids.float()
        premise = mask * (1.0 - token_type_ids.float()) * (1.0 - is_sep)
        known = (input_ids != self.unk_id).float()

        # The same known id on the other side.
        same = (input_ids.unsqueeze(2) == input_ids.unsqueeze(1)).float() * known.unsqueeze(2)
        in_premise = (same * premise.unsqueeze(1)).amax(dim=2)
        in_claim = (same * claim.unsqueeze(1)).amax(dim=2)
        exact = claim * in_premise + premise * in_claim

        x = torch.cat([self.vectors[input_ids].float(), self.features[input_ids], exact.unsqueeze(2)], dim=2)
        x = self.project(x)
        f = self.attend(x)
        scores = torch.bmm(f, f.transpose(1, 2))
        # Claim tokens attend to premise tokens and premise tokens to claim tokens.
        to_premise = torch.softmax(scores + (premise.unsqueeze(1) - 1.0) * 1e4, dim=2)
        to_claim = torch.softmax(scores + (claim.unsqueeze(1) - 1.0) * 1e4, dim=2)
        side = claim.unsqueeze(2)
        aligned = side * torch.bmm(to_premise, x) + (1.0 - side) * torch.bmm(to_claim, x)
        v = self.compare(torch.cat([x, aligned, x - aligned, x * aligned], dim=2))

        def pooled(m):
            weights = m.unsqueeze(2)
            mean = (v * weights).sum(dim=1) / weights.sum(dim=1).clamp(min=1.0)
            top = (v * weights + (weights - 1.0) * 1e4).amax(dim=1)
            return mean, top

        claim_mean, claim_max = pooled(claim)
        premise_mean, premise_max = pooled(premise)
        return self.classify(torch.cat([claim_mean, claim_max, premise_mean, premise_max], dim=1))
