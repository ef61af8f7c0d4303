"""docs/api.md "Events": webhooks, their deliveries and manual retries
(docs/webhooks.md). Moderator keys only: a webhook sends every event it wants to its URL."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, JsonValue, StringConstraints

from gateway.auth import Principal, moderator
from gateway.context import Gateway, gateway
from gateway.errors import ApiError
from gateway.idempotency import Answer, idempotent
from gateway.routes.combats import Room
from gateway.webhooks.store import Delivery, Registration, Status, WebhookStore, now_ms
from gateway.webhooks.targets import check_target
from shared.api_types import ApiModel, Int

router = APIRouter(prefix="/v1/webhooks", tags=["webhooks"])

WEBHOOK_ID = re.compile(r"wh_[0-9a-f]{24}")
DELIVERY_ID = re.compile(r"msg_[0-9a-f]{32}")
EventPattern = Annotated[
    str, StringConstraints(pattern=r"^(\*|[a-z0-9_]+(\.[a-z0-9_]+)*(\.\*)?)$", max_length=100)
]

JsonDict = dict[str, JsonValue]
EXAMPLE_ID = "wh_0123456789abcdef01234567"
EXAMPLE_DELIVERY = "msg_0123456789abcdef0123456789abcdef"


def _rfc3339(ms: int | None) -> str | None:
    if ms is None:
        return None
    at = datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="milliseconds")
    return at.replace("+00:00", "Z")


class NewWebhook(ApiModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "url": "https://bot.example.org/referee",
                    "event_types": ["combat.*", "action.resolved"],
                    "rooms": ["plaza"],
                    "description": "Discord bot",
                }
            ]
        },
    )

    url: str = Field(max_length=2000, description="http or https, on a public address")
    event_types: list[EventPattern] = Field(
        default_factory=lambda: ["*"],
        min_length=1,
        max_length=50,
        description="event types; combat.* is every type starting with combat.; * is all",
    )
    rooms: list[Room] | None = Field(
        None, min_length=1, max_length=50, description="only events of these rooms"
    )
    description: Annotated[str, StringConstraints(max_length=200)] = ""


WEBHOOK_EXAMPLE: JsonDict = {
    "id": EXAMPLE_ID,
    "url": "https://bot.example.org/referee",
    "event_types": ["combat.*", "action.resolved"],
    "rooms": ["plaza"],
    "description": "Discord bot",
    "created_at": "2026-11-20T18:00:00.000Z",
}


class Webhook(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [WEBHOOK_EXAMPLE]})

    id: str
    url: str
    event_types: list[str]
    rooms: list[str] | None
    description: str
    created_at: str

    @classmethod
    def of(cls, registration: Registration) -> Webhook:
        return cls(
            id=registration.id,
            url=registration.url,
            event_types=registration.event_types,
            rooms=registration.rooms,
            description=registration.description,
            created_at=_rfc3339(registration.created_at_ms) or "",
        )


class WebhookCreated(Webhook):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{**WEBHOOK_EXAMPLE, "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}]
        }
    )

    secret: str = Field(description="whsec_...: verifies the signatures; shown only this once")


class WebhookList(BaseModel):
    webhooks: list[Webhook]


class AttemptView(BaseModel):
    at: str
    status_code: int | None = Field(description="the receiver's answer; null: no answer")
    error: str | None
    duration_ms: int


class DeliveryView(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": EXAMPLE_DELIVERY,
                    "webhook_id": EXAMPLE_ID,
                    "event_id": "m_0123456789abcdef",
                    "event_type": "combat.ended",
                    "status": "failed",
                    "created_at": "2026-11-20T18:00:00.000Z",
                    "next_attempt_at": None,
                    "attempts": [
                        {
                            "at": "2026-11-20T18:00:00.120Z",
                            "status_code": 500,
                            "error": "HTTP 500",
                            "duration_ms": 31,
                        }
                    ],
                }
            ]
        }
    )

    id: str = Field(description="the webhook-id header of every attempt")
    webhook_id: str
    event_id: str
    event_type: str
    status: Status
    created_at: str
    next_attempt_at: str | None
    attempts: list[AttemptView]

    @classmethod
    def of(cls, delivery: Delivery) -> DeliveryView:
        return cls(
            id=delivery.id,
            webhook_id=delivery.webhook_id,
            event_id=delivery.event_id,
            event_type=delivery.event_type,
            status=delivery.status,
            created_at=_rfc3339(delivery.created_at_ms) or "",
            next_attempt_at=_rfc3339(delivery.next_attempt_at_ms),
            attempts=[
                AttemptView(
                    at=_rfc3339(a.at_ms) or "",
                    status_code=a.status_code,
                    error=a.error,
                    duration_ms=a.duration_ms,
                )
                for a in delivery.attempts
            ],
        )


class DeliveryDetail(DeliveryView):
    body: str | None = Field(description="what was signed and sent (null before the first attempt)")
    event: dict[str, object] = Field(description="the public event delivered")


class DeliveryList(BaseModel):
    deliveries: list[DeliveryView]


async def store(gw: Annotated[Gateway, Depends(gateway)]) -> WebhookStore:
    return gw.webhooks


async def _webhook_id(
    webhook_id: Annotated[str, Path(max_length=200, examples=[EXAMPLE_ID])],
) -> str:
    if not WEBHOOK_ID.fullmatch(webhook_id):
        raise ApiError("not_found")
    return webhook_id


async def _delivery_id(
    delivery_id: Annotated[str, Path(max_length=200, examples=[EXAMPLE_DELIVERY])],
) -> str:
    if not DELIVERY_ID.fullmatch(delivery_id):
        raise ApiError("not_found")
    return delivery_id


WebhookId = Annotated[str, Depends(_webhook_id)]
DeliveryId = Annotated[str, Depends(_delivery_id)]
Moderator = Annotated[Principal, Depends(moderator)]
Store = Annotated[WebhookStore, Depends(store)]


async def _registered(hooks: WebhookStore, tenant: str, webhook_id: str) -> Registration:
    registration = await hooks.get(tenant, webhook_id)
    if registration is None:
        raise ApiError("not_found")
    return registration


@router.post(
    "",
    status_code=201,
    response_model=WebhookCreated,
    responses={201: {"headers": {"Location": {"schema": {"type": "string"}}}}},
)
async def create_webhook(
    body: NewWebhook,
    request: Request,
    principal: Moderator,
    hooks: Store,
    gw: Annotated[Gateway, Depends(gateway)],
) -> JSONResponse:
    """Register an endpoint for the community's events; the answer shows its signing secret
    once (moderator). With an ``Idempotency-Key``, a retried registration is the same one."""
    await check_target(body.url, allow_private=gw.settings.referee_webhook_allow_private)

    async def register(key: str | None) -> Answer:
        registration = await hooks.create(
            principal.community_id, body.url, body.event_types, body.rooms, body.description
        )
        created = WebhookCreated(
            **Webhook.of(registration).model_dump(), secret=registration.secret
        )
        location = {"Location": f"/v1/webhooks/{registration.id}"}
        return Answer(201, created.model_dump(mode="json"), location)

    return await idempotent(
        request, gw, principal.community_id, body.model_dump(mode="json"), register
    )


@router.get("", response_model=WebhookList)
async def list_webhooks(principal: Moderator, hooks: Store) -> WebhookList:
    """The community's webhooks, oldest first (moderator)."""
    return WebhookList(webhooks=[Webhook.of(r) for r in await hooks.all(principal.community_id)])


@router.get("/{webhook_id}", response_model=Webhook)
async def get_webhook(webhook_id: WebhookId, principal: Moderator, hooks: Store) -> Webhook:
    return Webhook.of(await _registered(hooks, principal.community_id, webhook_id))


@router.delete("/{webhook_id}", status_code=204)
async def delete_webhook(webhook_id: WebhookId, principal: Moderator, hooks: Store) -> Response:
    """Forget a webhook: nothing more is sent to it, queued deliveries included."""
    if not await hooks.delete(principal.community_id, webhook_id):
        raise ApiError("not_found")
    return Response(status_code=204)


@router.get("/{webhook_id}/deliveries", response_model=DeliveryList)
async def list_deliveries(
    webhook_id: WebhookId,
    principal: Moderator,
    hooks: Store,
    status: Annotated[Status | None, Query()] = None,
    limit: Annotated[Int, Query(ge=1, le=200)] = 50,
) -> DeliveryList:
    """The webhook's deliveries, newest first (``status=failed``: those that gave up, by
    when they failed)."""
    await _registered(hooks, principal.community_id, webhook_id)
    found = await hooks.listed(principal.community_id, webhook_id, status, limit)
    return DeliveryList(deliveries=[DeliveryView.of(d) for d in found])


async def _delivery(
    hooks: WebhookStore, tenant: str, webhook_id: str, delivery_id: str
) -> Delivery:
    await _registered(hooks, tenant, webhook_id)
    delivery = await hooks.delivery(tenant, delivery_id)
    if delivery is None or delivery.webhook_id != webhook_id:
        raise ApiError("not_found")
    return delivery


@router.get(
    "/{webhook_id}/deliveries/{delivery_id}",
    response_model=DeliveryDetail,
)
async def get_delivery(
    webhook_id: WebhookId, delivery_id: DeliveryId, principal: Moderator, hooks: Store
) -> DeliveryDetail:
    delivery = await _delivery(hooks, principal.community_id, webhook_id, delivery_id)
    return DeliveryDetail(
        **DeliveryView.of(delivery).model_dump(), body=delivery.body, event=delivery.event
    )


@router.post(
    "/{webhook_id}/deliveries/{delivery_id}/retry",
    status_code=202,
    response_model=DeliveryView,
)
async def retry_delivery(
    webhook_id: WebhookId, delivery_id: DeliveryId, principal: Moderator, hooks: Store
) -> DeliveryView:
    """Send a delivery again now (202: it is queued). A failed or delivered one gets one
    more attempt; a pending one is tried now and keeps its remaining retries."""
    delivery = await _delivery(hooks, principal.community_id, webhook_id, delivery_id)
    now = now_ms()
    if delivery.status is not Status.PENDING:
        delivery.status, delivery.manual = Status.PENDING, True
    delivery.next_attempt_at_ms = now
    await hooks.save(delivery)
    await hooks.schedule.apply([hooks.arm_op(delivery, now)])
    return DeliveryView.of(delivery)
